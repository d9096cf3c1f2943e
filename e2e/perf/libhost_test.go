package perf_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/e2e/internal/libhost"
)

// TestPerf_1000Bindings_LibraryHost: the engine run by the minimal host, as
// a broker that starts, then lists the Bindings in its prober, then sees
// every probe end; it writes what the engine decides after each of those
// evaluations, with no writer gap. A baseline for the example host.
func TestPerf_1000Bindings_LibraryHost(t *testing.T) {
	r := newRun(t, "perf-libhost")
	host := &libhost.Host{Dyn: r.dyn, Broker: binding.Broker{Leader: true, StartedAt: r.start}}
	var steps []int
	step := func() {
		t0 := time.Now()
		wrote, res, err := host.Step(r.ctx, time.Now())
		require.NoError(t, err)
		require.Empty(t, res.Errors)
		steps = append(steps, wrote)
		t.Logf("evaluation %d: %d writes in %s", len(steps), wrote, time.Since(t0).Round(time.Millisecond))
	}
	step() // started; the prober has not listed anything
	host.Broker.ProberListed = true
	step() // listed; no probe has ended
	host.Probes = probe
	step() // every probe has ended
	step() // nothing changed
	require.Zero(t, steps[len(steps)-1], "a settled world must cause no write")
	elapsed := r.waitFinal()
	r.report("library host", elapsed, host.Writes, len(steps))
	require.Zero(t, host.Conflicts)
	// Once per change of what the engine decides (Pending, then
	// BackendReachable:Pending, then the result), never once per evaluation.
	require.LessOrEqual(t, host.Writes, 3*r.n)
}
