package plugin

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/dynamic"

	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/explain"
	"github.com/condengine/condengine/system"
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

// Plugin is the kubectl plugin for a set of systems: audit, explain and
// version, each over the systems it is given and none other.
type Plugin struct {
	// Name is what follows "kubectl" on the command line: the plugin's
	// binary is kubectl-NAME. A Plugin without one is "condengine".
	Name string
	// Systems are the systems whose objects it reads and evaluates.
	Systems []*system.System
}

// Main runs the plugin kubectl-name for systems on the process's
// arguments and exits with its code: the whole main of an author's
// plugin.
func Main(name string, systems ...*system.System) {
	p := &Plugin{Name: name, Systems: systems}
	os.Exit(p.Run(os.Args[1:], os.Stdout, os.Stderr))
}

// Run executes the command line args (without the program name) on the
// cluster of the kubeconfig, and returns the process exit code.
func (p *Plugin) Run(args []string, stdout, stderr io.Writer) int {
	return p.run(args, stdout, stderr, clusterReader, time.Now)
}

func (p *Plugin) run(args []string, stdout, stderr io.Writer, newReader newReaderFunc, now func() time.Time) int {
	name := cmp.Or(p.Name, "condengine")
	root := &cobra.Command{
		// kubectl finds the binary by its name, kubectl-NAME, and the user
		// types "kubectl NAME": help and errors say the latter.
		Use:           "kubectl-" + name,
		Annotations:   map[string]string{cobra.CommandDisplayNameAnnotation: "kubectl " + name},
		Short:         "Compare the status conditions written in a cluster with the ones condengine computes",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	flags := genericclioptions.NewConfigFlags(true)
	flags.AddFlags(root.PersistentFlags())
	e := &env{systems: p.Systems, sentences: explain.Sentences(conformance.Rules(p.Systems...)), flags: flags, newReader: newReader, now: now}
	root.AddCommand(e.auditCommand(), e.explainCommand(), versionCommand(name))
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

// env is what the subcommands share: the systems, their rule sentences,
// the kubectl flags, and how to reach the cluster and the clock (tests
// replace both).
type env struct {
	systems   []*system.System
	sentences map[string]string
	flags     *genericclioptions.ConfigFlags
	newReader newReaderFunc
	now       func() time.Time
}
