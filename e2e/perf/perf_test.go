package perf_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/dynamic"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/e2e/internal/cluster"
	"github.com/condengine/condengine/e2e/internal/harness"
	"github.com/condengine/condengine/e2e/internal/kube"
)

// EnvPerf turns the performance tests on; its value, if a number of at
// least 10, is the count of Bindings (default 1000).
const EnvPerf = "CONDENGINE_E2E_PERF"

func bindingCount() int {
	if n, err := strconv.Atoi(os.Getenv(EnvPerf)); err == nil && n >= 10 {
		return n
	}
	return 1000
}

// Every tenth Binding asks for a channel an older one holds, so a run ends
// with both READY values: True OK for 90%, False Accepted:ChannelConflict
// for 10%.
func channelOf(i, n int) string { return fmt.Sprintf("C%04d", i%(n-n/10)) }

// run is one performance run in its own namespace.
type run struct {
	t     *testing.T
	ctx   context.Context
	c     *cluster.Cluster
	dyn   dynamic.Interface
	ns    string
	n     int
	start time.Time

	total0   float64
	bindings map[string]float64
}

// newRun skips without EnvPerf, else makes the namespace, its ChatConnection
// and AgentBackend, reads the request counters and creates the Bindings.
// The Bindings are deleted at the end, since every host lists all of them.
func newRun(t *testing.T, ns string) *run {
	if os.Getenv(EnvPerf) == "" {
		t.Skip("performance run: set " + EnvPerf + "=1 (bash e2e/run.sh -run Perf -v)")
	}
	c := harness.Need(t)
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	t.Cleanup(cancel)
	dyn, err := dynamic.NewForConfig(c.RESTConfig())
	require.NoError(t, err)
	r := &run{t: t, ctx: ctx, c: c, dyn: dyn, ns: ns, n: bindingCount()}
	_, err = c.Kubectl(ctx, `
apiVersion: v1
kind: Namespace
metadata: {name: `+ns+`}
---
apiVersion: agentkourier.dev/v1alpha1
kind: ChatConnection
metadata: {namespace: `+ns+`, name: slack}
spec: {platform: slack, tokenSecretRef: {name: bot, key: token}}
---
apiVersion: agentkourier.dev/v1alpha1
kind: AgentBackend
metadata: {namespace: `+ns+`, name: echo}
spec: {url: "https://echo.perf.svc.cluster.local"}
`, "apply", "-f", "-")
	require.NoError(t, err)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		// One request, not one per Binding as kubectl delete --all makes.
		_ = dyn.Resource(kube.Bindings).Namespace(ns).DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{})
	})

	r.total0, r.bindings, err = requestCounts(ctx, c)
	require.NoError(t, err)
	r.start = time.Now()
	r.createAll()
	t.Logf("created %d Bindings in %s", r.n, time.Since(r.start).Round(time.Millisecond))
	return r
}

// probe is a clean finished probe pass of b.
func probe(b *akv1.Binding) *binding.ProbeResult {
	card := &binding.AgentCard{Name: "echo", Version: "1.0",
		SupportedInterfaces: []binding.AgentInterface{{URL: "https://echo.perf.svc.cluster.local/a2a", ProtocolBinding: "JSONRPC"}}}
	return &binding.ProbeResult{UID: b.UID, Namespace: b.Namespace, Name: b.Name, Generation: b.Generation,
		Backend: &binding.BackendObservation{HTTPStatus: 200, Card: card},
		Channel: &binding.ChannelObservation{OK: true, IsMember: true}}
}

// waitFinal polls kubectl, as a user would, until every Binding shows its
// final READY and REASON, and returns the time since the first create.
func (r *run) waitFinal() time.Duration {
	r.t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	seen := map[string]int{}
	for {
		// One chunk: kubectl aligns each chunk of a chunked list (500 by
		// default) on its own, so a single header does not fit them all.
		out, err := r.c.Kubectl(r.ctx, "", "get", "akbinding", "-n", r.ns, "--chunk-size=0")
		require.NoError(r.t, err)
		tbl, err := kube.ParseTable(out)
		require.NoError(r.t, err)
		clear(seen)
		reasons := tbl.Column("REASON")
		for i, ready := range tbl.Column("READY") {
			seen[ready+" "+reasons[i]]++
		}
		if seen["True OK"] == r.n-r.n/10 && seen["False Accepted:ChannelConflict"] == r.n/10 {
			return time.Since(r.start)
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("kubectl never showed every final READY; READY REASON counts: %v", seen)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// report logs the run's figures.
func (r *run) report(host string, elapsed time.Duration, writes, evaluations int) {
	r.t.Helper()
	total1, bindings1, err := requestCounts(r.ctx, r.c)
	require.NoError(r.t, err)
	perVerb := map[string]float64{}
	for k, v := range bindings1 {
		if d := v - r.bindings[k]; d > 0 {
			perVerb[k] = d
		}
	}
	r.t.Logf("%s, %d Bindings: every final READY shown by kubectl %s after the first create",
		host, r.n, elapsed.Round(time.Millisecond))
	r.t.Logf("%s: %d status writes in %d evaluations (%.2f per Binding)",
		host, writes, evaluations, float64(writes)/float64(r.n))
	r.t.Logf("%s: API server requests in the run: %.0f; Binding requests by verb: %v", host, total1-r.total0, perVerb)
}

// createAll creates the Bindings with a few clients at once, as a large
// kubectl apply would.
func (r *run) createAll() {
	r.t.Helper()
	const workers = 8
	next := make(chan int)
	var failed sync.Once
	var firstErr error
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				obj := kube.Binding(r.ns, fmt.Sprintf("b-%04d", i), "echo", "slack", channelOf(i, r.n))
				if _, err := r.dyn.Resource(kube.Bindings).Namespace(r.ns).Create(r.ctx, obj, metav1.CreateOptions{}); err != nil {
					failed.Do(func() { firstErr = err })
				}
			}
		})
	}
	for i := range r.n {
		next <- i
	}
	close(next)
	wg.Wait()
	require.NoError(r.t, firstErr)
}

// listObjects reads the Bindings of the run as the library's type.
func listObjects(t *testing.T, r *run) binding.Objects {
	t.Helper()
	list, err := r.dyn.Resource(kube.Bindings).Namespace(r.ns).List(r.ctx, metav1.ListOptions{})
	require.NoError(t, err)
	raws := make([]json.RawMessage, 0, len(list.Items))
	for i := range list.Items {
		raw, err := list.Items[i].MarshalJSON()
		require.NoError(t, err)
		raws = append(raws, raw)
	}
	objs, err := binding.DecodeObjects(raws)
	require.NoError(t, err)
	return objs
}
