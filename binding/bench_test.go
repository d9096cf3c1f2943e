package binding_test

import (
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	bt "github.com/condengine/condengine/binding/bindingtest"
)

// benchWorld builds n Bindings over 1,000 AgentBackends and 1,000
// ChatConnections in 100 namespaces. Every seventh Binding names objects
// of another namespace; every twentieth competes for the channel of the
// one before it; one in ten probes fails. With healthy set, every Binding
// is valid, alone on its channel and probed fine. Creation times rise
// with i, 30 ms apart before they are stored at whole seconds as an API
// server stores them, and all precede now, even at 100,000 Bindings: a condition
// older than its object is not kept, so a world made in the future would
// have writes due however often its status were applied.
func benchWorld(n int, healthy bool) binding.Snapshot {
	const namespaces, perNS = 100, 10
	s := binding.Snapshot{
		Now:    now,
		Broker: binding.Broker{Leader: true, ProberListed: true, StartedAt: now.Add(-time.Hour), ConfigSource: binding.ConfigSourceCRDs},
	}
	ns := func(i int) string { return "ns-" + strconv.Itoa(i%namespaces) }
	for i := range namespaces * perNS {
		s.Backends = append(s.Backends, bt.NewBackend(ns(i), "b-"+strconv.Itoa(i/namespaces), "*"))
		s.Connections = append(s.Connections, bt.NewConnection(ns(i), "c-"+strconv.Itoa(i/namespaces), "*"))
	}
	for i := range n {
		b := bt.NewBinding(ns(i), "chat-"+strconv.Itoa(i),
			bt.Backend("", "b-"+strconv.Itoa((i/namespaces)%perNS)),
			bt.Connection("", "c-"+strconv.Itoa((i/namespaces)%perNS)),
			bt.Channel("C"+strconv.Itoa(i/(namespaces*perNS))),
			bt.Created(bt.Epoch().Add(time.Duration(i)*30*time.Millisecond).Truncate(time.Second)))
		if !healthy && i%7 == 3 {
			b.Spec.Agent.BackendRef = akv1.Ref{Namespace: ns(i + 1), Name: "b-0"}
		}
		if !healthy && i%20 == 19 {
			prev := s.Bindings[i-1]
			b.Namespace, b.UID = prev.Namespace, "u-rival-"+prev.UID
			b.Spec = prev.Spec
		}
		s.Bindings = append(s.Bindings, b)
		be, ch := bt.CardOK(), bt.Joined()
		if !healthy && i%10 == 5 {
			be, ch = bt.HTTP(503), bt.ChannelState(false, false)
		}
		s.Probes = append(s.Probes, bt.Probe(b, 1, be, ch))
		spec := b.Spec
		s.Served.Objects = append(s.Served.Objects, binding.Served{Kind: akv1.KindBinding, Namespace: b.Namespace, Name: b.Name, UID: b.UID, Generation: 1, Binding: &spec})
	}
	return s
}

func benchSizes() []int { return []int{1_000, 10_000, 100_000} }

// cpuNow is the process's CPU time (user and system). The benchmark
// machines are shared, so wall time per Binding swings with other load;
// CPU time per Binding is the figure to compare across sizes.
func cpuNow() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// runPerBinding runs Evaluate in the benchmark loop and reports wall and
// CPU nanoseconds per Binding.
func runPerBinding(b *testing.B, s binding.Snapshot) {
	b.ReportAllocs()
	n := len(s.Bindings)
	cpu := cpuNow()
	for b.Loop() {
		_ = mustEvaluate(s)
	}
	used := cpuNow() - cpu
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/Binding")
	b.ReportMetric(float64(used.Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/Binding")
}

// BenchmarkEvaluate measures a mixed world where most Bindings need a
// write (no status yet). Compare ns/Binding across sizes: it must stay
// flat.
func BenchmarkEvaluate(b *testing.B) {
	perBindingAtSizes(b, func(n int) binding.Snapshot { return benchWorld(n, false) })
}

// perBindingAtSizes runs runPerBinding, one sub-benchmark per size, over
// the world built for that size.
func perBindingAtSizes(b *testing.B, world func(n int) binding.Snapshot) {
	for _, n := range benchSizes() {
		s := world(n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			runPerBinding(b, s)
		})
	}
}

// BenchmarkEvaluateSteady measures the same mixed world once its status
// is written: the usual state of a running broker.
func BenchmarkEvaluateSteady(b *testing.B) {
	perBindingAtSizes(b, func(n int) binding.Snapshot {
		s := benchWorld(n, false)
		return binding.Apply(s, mustEvaluate(s))
	})
}

// BenchmarkEvaluateUnchanged measures healthy Bindings whose status is
// already right: apart from the result and the per-evaluation indexes,
// nothing may be allocated per Binding (allocs/Binding near 0).
func BenchmarkEvaluateUnchanged(b *testing.B) {
	for _, n := range benchSizes() {
		s := benchWorld(n, true)
		s = binding.Apply(s, mustEvaluate(s))
		if r := mustEvaluate(s); countWrites(r) != 0 {
			b.Fatalf("%d writes in the unchanged world", countWrites(r))
		}
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			runPerBinding(b, s)
		})
		b.Run(strconv.Itoa(n)+"/SetStatusConditionInPlace", func(b *testing.B) {
			runSetStatusConditionInPlace(b, s)
		})
	}
}

// runSetStatusConditionInPlace is the baseline an unchanged pass is held
// to: what a controller does per object on its own deep copy, one
// meta.SetStatusCondition per condition the object already carries (the
// four of a served Binding), with nothing to change.
func runSetStatusConditionInPlace(b *testing.B, s binding.Snapshot) {
	own := make([][]metav1.Condition, len(s.Bindings))
	want := make([][]metav1.Condition, len(s.Bindings))
	for i := range s.Bindings {
		own[i] = slices.Clone(s.Bindings[i].Status.Conditions)
		for _, c := range own[i] {
			c.LastTransitionTime = metav1.Time{}
			want[i] = append(want[i], c)
		}
	}
	b.ReportAllocs()
	cpu := cpuNow()
	for b.Loop() {
		for i := range own {
			changed := false
			for _, c := range want[i] {
				changed = meta.SetStatusCondition(&own[i], c) || changed
			}
			if changed {
				b.Fatal("changed")
			}
		}
	}
	used := cpuNow() - cpu
	n := len(s.Bindings)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/Binding")
	b.ReportMetric(float64(used.Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/Binding")
}

func countWrites(r binding.Result) int {
	k := 0
	for _, br := range r.Bindings {
		if br.Write {
			k++
		}
	}
	return k
}

// TestEvaluate_UnchangedBindingAllocatesNothingOfItsOwn checks the
// allocation rule without a benchmark run: ten times the Bindings may cost
// bigger allocations, not more of them, apart from the extra tables of
// the per-evaluation hash maps (one per about a thousand entries).
func TestEvaluate_UnchangedBindingAllocatesNothingOfItsOwn(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two worlds")
	}
	allocs := func(n int) float64 {
		s := benchWorld(n, true)
		s = binding.Apply(s, mustEvaluate(s))
		return testing.AllocsPerRun(3, func() { _ = mustEvaluate(s) })
	}
	small, large := allocs(200), allocs(2_000)
	if perBinding := (large - small) / 1800; perBinding > 0.05 {
		t.Fatalf("allocations grow with the Bindings: %v for 200, %v for 2000", small, large)
	}
}

// BenchmarkEvaluateFlatness reports, in one run, the CPU time per Binding
// at 100k Bindings divided by that at 1k (unchanged healthy worlds): the
// figure the performance rule asks to keep near 1.
func BenchmarkEvaluateFlatness(b *testing.B) {
	perBinding := func(n int) float64 {
		s := benchWorld(n, true)
		s = binding.Apply(s, mustEvaluate(s))
		reps := max(1, 200_000/n)
		start := cpuNow()
		for range reps {
			_ = mustEvaluate(s)
		}
		return float64((cpuNow() - start).Nanoseconds()) / float64(reps*n)
	}
	for b.Loop() {
		small, large := perBinding(1_000), perBinding(100_000)
		b.ReportMetric(small, "cpu-ns/Binding@1k")
		b.ReportMetric(large, "cpu-ns/Binding@100k")
		b.ReportMetric(large/small, "ratio-100k/1k")
	}
}
