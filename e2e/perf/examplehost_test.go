package perf_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"sigs.k8s.io/controller-runtime/pkg/client"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding/policy"
	"github.com/condengine/condengine/examples/bindinghost"
)

// TestPerf_1000Bindings_ExampleHost: the example host with the default
// limits, looking for work every second of a broker's clock that starts
// with the Bindings, lists them in its prober at 15 s and has every probe at
// 20 s. The clock is the host's input, so a minute of the broker's life runs
// as fast as the API server serves it; the writer's 10 s gap still holds.
func TestPerf_1000Bindings_ExampleHost(t *testing.T) {
	r := newRun(t, "perf-examplehost")
	cl, err := client.New(r.c.RESTConfig(), client.Options{})
	require.NoError(t, err)
	h, err := bindinghost.New(cl, policy.DefaultLimits(), "")
	require.NoError(t, err)
	h.SetStartedAt(r.start)

	writes, evaluations := 0, 0
	probed := false
	for tick := 0; tick <= 45; tick++ {
		now := r.start.Add(time.Duration(tick) * time.Second)
		if tick == 20 && !probed {
			objs := listBindings(t, r)
			for i := range objs {
				h.RecordProbe(*probe(&objs[i]))
			}
			probed = true
		}
		rep, err := h.RunOnce(r.ctx, now)
		require.NoError(t, err)
		require.Empty(t, rep.Failed)
		evaluations++
		writes += len(rep.Written)
		if len(rep.Written) > 0 {
			t.Logf("broker time %2ds: %d writes", tick, len(rep.Written))
		}
	}
	elapsed := r.waitFinal()
	r.report("example host", elapsed, writes, evaluations)
	require.LessOrEqual(t, writes, 3*r.n, "each Binding is written a bounded number of times, not once per evaluation")
}

func listBindings(t *testing.T, r *run) []akv1.Binding {
	t.Helper()
	objs := listObjects(t, r)
	return objs.Bindings
}
