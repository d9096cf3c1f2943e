package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/dynamic"
)

// Exit statuses.
const (
	exitOK    = 0
	exitDrift = 1
	exitError = 2
)

// newReaderFunc builds the cluster reader from the kubectl flags; tests
// replace it with one over a fake client.
type newReaderFunc func(*genericclioptions.ConfigFlags) (*reader, error)

func clusterReader(flags *genericclioptions.ConfigFlags) (*reader, error) {
	cfg, err := flags.ToRESTConfig()
	if err != nil {
		return nil, err
	}
	client, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	mapper, err := flags.ToRESTMapper()
	if err != nil {
		return nil, err
	}
	return &reader{client: client, mapper: mapper}, nil
}

// errDrift marks a run that found drift, so that cobra's error path
// maps it to exitDrift without printing it as an error.
var errDrift = errors.New("drift")

func run(args []string, stdout, stderr io.Writer, newReader newReaderFunc, now func() time.Time) int {
	root := &cobra.Command{
		// kubectl finds the binary by its name, kubectl-condengine, and the
		// user types "kubectl condengine": help and errors say the latter.
		Use:           "kubectl-condengine",
		Annotations:   map[string]string{cobra.CommandDisplayNameAnnotation: "kubectl condengine"},
		Short:         "Compare the status conditions written in a cluster with the ones condengine computes",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	flags := genericclioptions.NewConfigFlags(true)
	flags.AddFlags(root.PersistentFlags())
	root.AddCommand(auditCommand(flags, newReader, now), explainCommand(flags, newReader, now), versionCommand())
	err := root.ExecuteContext(context.Background())
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errDrift):
		return exitDrift
	}
	fmt.Fprintf(stderr, "error: %v\n", err)
	return exitError
}
