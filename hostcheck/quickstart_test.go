package hostcheck_test

import (
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/policy"
	"github.com/condengine/condengine/examples/quickstart"
	"github.com/condengine/condengine/hostcheck"
)

// The README's quick start, as a user copies it, with the harness's
// clock, lease and prober as its inputs.
func TestQuickstartUnderFaults(t *testing.T) {
	hostcheck.Check(t, func(c client.Client, env hostcheck.Env) (reconcile.Reconciler, error) {
		return &quickstart.BindingReconciler{Client: c, Limits: policy.DefaultLimits(),
			Now: env.Now, Started: env.StartedAt, Leader: env.Leader,
			Probes: func() []binding.ProbeResult { return hostcheck.BindingProbes(env) }}, nil
	}, hostcheck.Options{System: hostcheck.Binding()})
}
