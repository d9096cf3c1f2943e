// Command hosts runs the two example hosts under one controller-runtime
// manager with leader election: the Binding host for the broker named by
// -broker, and the FinOps host. Only the elected leader writes.
//
//	go run ./cmd/hosts -kubeconfig ~/.kube/config -namespace finops-operator-system
package main

import (
	"flag"
	"fmt"
	"os"

	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/condengine/condengine/binding/policy"
	"github.com/condengine/condengine/examples/bindinghost"
	"github.com/condengine/condengine/examples/finopshost"
)

func main() {
	broker := flag.String("broker", "", "the broker whose Bindings to write; empty is the default broker")
	namespace := flag.String("namespace", "finops-operator-system", "the namespace of the leader election lease and of the OpenCost pricing ConfigMap")
	opts := zap.Options{}
	opts.BindFlags(flag.CommandLine)
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&opts)))
	if err := run(*broker, *namespace); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(broker, namespace string) error {
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		return err
	}
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{
		Scheme:                  scheme,
		LeaderElection:          true,
		LeaderElectionID:        "condengine-example-hosts",
		LeaderElectionNamespace: namespace,
	})
	if err != nil {
		return err
	}
	bh, err := bindinghost.New(mgr.GetClient(), policy.DefaultLimits(), broker)
	if err != nil {
		return err
	}
	bh.WithLogger(ctrl.Log.WithName("binding-host"))
	fh, err := finopshost.New(mgr.GetClient(), namespace)
	if err != nil {
		return err
	}
	// The Binding host is told of changes by the manager's informers.
	if err := bh.SetupWithManager(mgr); err != nil {
		return err
	}
	if err := mgr.Add(fh); err != nil {
		return err
	}
	return mgr.Start(ctrl.SetupSignalHandler())
}
