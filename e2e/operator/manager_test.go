package operator_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	ctrl "sigs.k8s.io/controller-runtime"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/condengine/condengine/binding/policy"
	"github.com/condengine/condengine/e2e/internal/seed"
	"github.com/condengine/condengine/examples/bindinghost"
)

// TestBindingHost_UnderAManagerWorksPerEvent: the host set up with a
// controller-runtime manager learns of changes from the manager's
// informers. It writes the seed's statuses; a Binding edited afterwards
// gets the status of its new generation, and no other Binding is written.
func TestBindingHost_UnderAManagerWorksPerEvent(t *testing.T) {
	e := newEnv(t)
	e.seed()
	ctrllog.SetLogger(logr.Discard())
	mgr, err := ctrl.NewManager(e.C.RESTConfig(), ctrl.Options{
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
	})
	require.NoError(t, err)
	h, err := bindinghost.New(mgr.GetClient(), policy.DefaultLimits(), "")
	require.NoError(t, err)
	h.SetProberListed()
	e.probeAll(h)
	require.NoError(t, h.SetupWithManager(mgr))
	ctx, cancel := context.WithCancel(e.Ctx)
	var done sync.WaitGroup
	done.Go(func() { _ = mgr.Start(ctx) })
	t.Cleanup(func() { cancel(); done.Wait() })

	require.Eventually(t, func() bool {
		return cmp.Diff(seed.Rows, e.Table("akbinding", "-A").Without("AGE")) == ""
	}, 30*time.Second, 250*time.Millisecond, "the seed's table never showed")
	before := e.resourceVersions()

	e.Kubectl(seed.BindingYAML("team-a", "team-a-chat", "echo", "", "C3"), "apply", "-f", "-")
	e.probeAll(h)
	require.Eventually(t, func() bool {
		b := e.bindings()["team-a/team-a-chat"]
		for _, c := range b.Status.Conditions {
			if c.ObservedGeneration != 2 {
				return false
			}
		}
		return len(b.Status.Conditions) > 0 && readyOf(b) == "True OK"
	}, 30*time.Second, 250*time.Millisecond, "the edited Binding never got the status of its generation 2")
	after := e.resourceVersions()
	for _, k := range []string{"team-a/late", "team-b/support"} {
		require.Equal(t, before[k], after[k], "%s was written though nothing of it changed", k)
	}
}
