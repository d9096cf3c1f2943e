package binding_test

import (
	"strconv"
	"testing"
	"time"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
)

// BenchmarkIncremental measures one Binding edited in a settled world of
// n: the step an Incremental takes per event, to be read beside
// BenchmarkEvaluateUnchanged at the same n (the full pass a host makes
// otherwise). Each iteration moves one Binding to another channel and
// back in turn, so every step changes an outcome.
func BenchmarkIncremental(b *testing.B) {
	for _, n := range benchSizes() {
		s, e := settledIncremental(b, n)
		b.Run(strconv.Itoa(n), func(b *testing.B) { stepLoop(b, e, s.Bindings[n/2]) })
	}
}

// stepLoop moves one Binding to another channel and back in turn, one
// step of e an iteration, so every step changes an outcome, and reports
// the CPU time a step takes.
func stepLoop(b *testing.B, e *binding.Incremental, edited akv1.Binding) {
	moved := edited
	moved.Generation++
	moved.Spec.Chat.Channel = "elsewhere"
	b.ReportAllocs()
	i := 0
	cpu := cpuNow()
	for b.Loop() {
		o := edited
		if i%2 == 0 {
			o = moved
		}
		i++
		if st := e.SetBinding(o); st.Full || len(st.Bindings) != 1 {
			b.Fatalf("step re-evaluated %d Bindings (full %v), want 1", len(st.Bindings), st.Full)
		}
	}
	b.ReportMetric(float64((cpuNow()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/step")
}

// BenchmarkIncrementalSetNow measures moving the clock of a settled world
// of n, where no write is due: the step a host takes on a timer. It
// re-evaluates only the outcomes with a write due, found in an index
// rather than by looking at all n.
func BenchmarkIncrementalSetNow(b *testing.B) {
	for _, n := range benchSizes() {
		s, e := settledIncremental(b, n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			now := s.Now
			for b.Loop() {
				now = now.Add(time.Second)
				if st := e.SetNow(now); st.Full || len(st.Bindings) != 0 {
					b.Fatalf("step re-evaluated %d Bindings (full %v), want none", len(st.Bindings), st.Full)
				}
			}
		})
	}
}

// settledIncremental returns the benchmark world of n with its outcomes
// written back, and an Incremental over it.
func settledIncremental(b *testing.B, n int) (binding.Snapshot, *binding.Incremental) {
	s := benchWorld(n, true)
	s = binding.Apply(s, mustEvaluate(s))
	e, _, err := binding.NewIncremental(s)
	if err != nil {
		b.Fatal(err)
	}
	return s, e
}
