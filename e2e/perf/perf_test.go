package perf_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/dynamic"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/e2e/internal/harness"
	"github.com/condengine/condengine/e2e/internal/kube"
	"github.com/condengine/condengine/e2e/internal/libhost"
)

// EnvPerf turns the performance test on; its value, if a number, is the
// count of Bindings (default 1000).
const EnvPerf = "CONDENGINE_E2E_PERF"

const ns = "perf"

// Every tenth Binding asks for a channel an older one holds, so the run
// ends with both READY values: True for 900, False (ChannelConflict) for 100.
func channelOf(i, n int) string { return fmt.Sprintf("C%04d", i%(n-n/10)) }

func bindingCount() int {
	if n, err := strconv.Atoi(os.Getenv(EnvPerf)); err == nil && n >= 10 {
		return n
	}
	return 1000
}

// TestPerf_1000Bindings_LibraryHost creates the Bindings, runs the engine as
// a broker that starts, then lists them in its prober, then sees every probe
// end, and writes what the engine decides after each of those evaluations.
// It reports how long it took kubectl to show every final READY, how many
// status writes were made, and how many requests the API server served.
func TestPerf_1000Bindings_LibraryHost(t *testing.T) {
	if os.Getenv(EnvPerf) == "" {
		t.Skip("performance run: set " + EnvPerf + "=1 (e2e/run.sh -run Perf -v)")
	}
	c := harness.Need(t)
	n := bindingCount()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	dyn, err := dynamic.NewForConfig(c.RESTConfig())
	require.NoError(t, err)
	_, err = c.Kubectl(ctx, `
apiVersion: v1
kind: Namespace
metadata: {name: perf}
---
apiVersion: agentkourier.dev/v1alpha1
kind: ChatConnection
metadata: {namespace: perf, name: slack}
spec: {platform: slack, tokenSecretRef: {name: bot, key: token}}
---
apiVersion: agentkourier.dev/v1alpha1
kind: AgentBackend
metadata: {namespace: perf, name: echo}
spec: {url: "https://echo.perf.svc.cluster.local"}
`, "apply", "-f", "-")
	require.NoError(t, err)

	total0, bindings0, err := requestCounts(ctx, c)
	require.NoError(t, err)
	start := time.Now()
	createAll(ctx, t, dyn, n)
	created := time.Since(start)
	t.Logf("created %d Bindings in %s", n, created.Round(time.Millisecond))

	host := &libhost.Host{Dyn: dyn, Broker: binding.Broker{Leader: true, StartedAt: start}}
	var steps []int
	step := func() {
		t0 := time.Now()
		wrote, res, err := host.Step(ctx, time.Now())
		require.NoError(t, err)
		require.Empty(t, res.Errors)
		steps = append(steps, wrote)
		t.Logf("evaluation %d: %d writes in %s", len(steps), wrote, time.Since(t0).Round(time.Millisecond))
	}
	step() // the broker has started; its prober has not listed anything yet
	host.Broker.ProberListed = true
	step() // listed, no probe has ended
	host.Probes = func(b *binding.Binding) *binding.ProbeResult {
		card := &binding.AgentCard{Name: "echo", Version: "1.0",
			SupportedInterfaces: []binding.AgentInterface{{URL: "https://echo.perf.svc.cluster.local/a2a", ProtocolBinding: "JSONRPC"}}}
		return &binding.ProbeResult{UID: b.UID, Namespace: b.Namespace, Name: b.Name, Generation: b.Generation,
			Backend: &binding.BackendObservation{HTTPStatus: 200, Card: card},
			Channel: &binding.ChannelObservation{OK: true, IsMember: true}}
	}
	step() // every probe has ended
	step() // nothing changed: nothing to write
	require.Zero(t, steps[len(steps)-1], "a settled world must cause no write")

	// Done when kubectl, as a user runs it, shows every final READY.
	var ready, refused int
	deadline := time.Now().Add(2 * time.Minute)
	seen := map[string]int{}
	for {
		// One chunk: kubectl aligns each chunk of a chunked list (500 by
		// default) on its own, so a single header does not fit them all.
		out, err := c.Kubectl(ctx, "", "get", "akbinding", "-n", ns, "--chunk-size=0")
		require.NoError(t, err)
		tbl, err := kube.ParseTable(out)
		require.NoError(t, err)
		ready, refused = 0, 0
		clear(seen)
		for i, r := range tbl.Column("READY") {
			seen[r+" "+tbl.Column("REASON")[i]]++
			switch {
			case r == "True" && tbl.Column("REASON")[i] == "OK":
				ready++
			case r == "False" && tbl.Column("REASON")[i] == "Accepted:ChannelConflict":
				refused++
			}
		}
		if ready+refused == n || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	elapsed := time.Since(start)
	require.Equal(t, n-n/10, ready, "READY REASON counts: %v", seen)
	require.Equal(t, n/10, refused, "READY REASON counts: %v", seen)

	total1, bindings1, err := requestCounts(ctx, c)
	require.NoError(t, err)
	perVerb := map[string]float64{}
	for k, v := range bindings1 {
		if d := v - bindings0[k]; d > 0 {
			perVerb[k] = d
		}
	}
	t.Logf("%d Bindings: created in %s; every final READY shown by kubectl %s after the first create",
		n, created.Round(time.Millisecond), elapsed.Round(time.Millisecond))
	t.Logf("status writes: %d accepted, %d refused as stale (%.2f per Binding); writes per evaluation: %v",
		host.Writes, host.Conflicts, float64(host.Writes)/float64(n), steps)
	t.Logf("API server requests in the run: %.0f in all; Binding requests by verb: %v", total1-total0, perVerb)
	// Each Binding is written a bounded number of times: once per change of
	// what the engine decides (Pending at start, BackendReachable:Pending
	// once listed, the final status), never once per evaluation.
	require.LessOrEqual(t, host.Writes, 3*n)
}

// createAll creates n Bindings with a few clients at once, as a user's
// kubectl apply of a large manifest would.
func createAll(ctx context.Context, t *testing.T, dyn dynamic.Interface, n int) {
	t.Helper()
	const workers = 8
	next := make(chan int)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				obj := kube.Binding(ns, fmt.Sprintf("b-%04d", i), "echo", "slack", channelOf(i, n))
				if _, err := dyn.Resource(kube.Bindings).Namespace(ns).Create(ctx, obj, metav1.CreateOptions{}); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	for i := range n {
		select {
		case next <- i:
		case err := <-errs:
			close(next)
			wg.Wait()
			t.Fatal(err)
		}
	}
	close(next)
	wg.Wait()
	select {
	case err := <-errs:
		t.Fatal(err)
	default:
	}
}
