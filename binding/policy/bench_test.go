package policy

import (
	"fmt"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"
)

// tick builds n writer inputs; when due, every status differs from the
// computed one and the gap has passed.
func tick(n int, due bool) []WriterInput {
	ok, bad := status(1, "OK"), status(1, "Unreachable")
	mems := make([]Memory, n)
	in := make([]WriterInput, n)
	for i := range in {
		mems[i] = Memory{Written: ok, LastEnd: t0.Add(-time.Duration(i%60) * time.Second)}
		in[i] = WriterInput{Object: ok, Computed: ok, Memory: &mems[i], Leader: true, Now: t0}
		if due {
			in[i].Computed = bad
		}
	}
	return in
}

func targets(n int, sorted bool) []Target {
	out := make([]Target, n)
	for i := range out {
		j := n - i // reverse order, so the plan's sort has work to do
		if sorted {
			j = i
		}
		out[i] = Target{Namespace: fmt.Sprintf("ns-%03d", j/200), Name: fmt.Sprintf("b-%06d", j),
			UID: types.UID(fmt.Sprintf("u-%06d", j)), Generation: 1, Served: i%10 != 0}
	}
	return out
}

func BenchmarkDecideAll(b *testing.B) {
	l := DefaultLimits()
	for _, n := range []int{1_000, 100_000} {
		for _, due := range []bool{false, true} {
			b.Run(fmt.Sprintf("n=%d/due=%v", n, due), func(b *testing.B) {
				in := tick(n, due)
				out := make([]Decision, 0, n)
				b.ReportAllocs()
				for b.Loop() {
					out = l.DecideAll(in, out[:0])
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/binding")
			})
		}
	}
}

func BenchmarkPlan(b *testing.B) {
	l := DefaultLimits()
	for _, n := range []int{1_000, 100_000} {
		for _, sorted := range []bool{true, false} {
			b.Run(fmt.Sprintf("n=%d/sorted=%v", n, sorted), func(b *testing.B) {
				ts := targets(n, sorted)
				b.ReportAllocs()
				for b.Loop() {
					_ = l.Plan(ts)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/binding")
			})
		}
	}
}

func BenchmarkNextPass_NothingDue(b *testing.B) {
	l := DefaultLimits()
	s := ProberState{}.Started(t0).Finished().Trigger(TriggerConfig, t0.Add(time.Second))
	b.ReportAllocs()
	for b.Loop() {
		_ = l.NextPass(s, t0.Add(10*time.Second))
	}
}

// A writer tick over 100k Bindings where nothing is due, and a prober tick
// that starts nothing, must not allocate.
func TestTick_NothingDue_DoesNotAllocate(t *testing.T) {
	l := DefaultLimits()
	in := tick(100_000, false)
	out := make([]Decision, 0, len(in))
	allocs := testing.AllocsPerRun(3, func() {
		out = l.DecideAll(in, out[:0])
		for i := range in {
			_ = l.Observe(*in[i].Memory, out[i], in[i].Object, in[i].Now)
		}
	})
	if allocs != 0 {
		t.Fatalf("a writer tick with nothing due allocated %v times", allocs)
	}
	for _, d := range out {
		if d.Action != None {
			t.Fatalf("expected nothing due, got %v", d.Action)
		}
	}
	s := ProberState{}.Started(t0).Finished().Trigger(TriggerConfig, t0.Add(time.Second))
	allocs = testing.AllocsPerRun(10, func() { _ = l.NextPass(s, t0.Add(10*time.Second)) })
	if allocs != 0 {
		t.Fatalf("a prober tick with nothing due allocated %v times", allocs)
	}
	// Waits allocate nothing either: the reasons are constants.
	due := tick(1_000, true)
	allocs = testing.AllocsPerRun(3, func() { out = l.DecideAll(due, out[:0]) })
	if allocs != 0 {
		t.Fatalf("a writer tick with waits allocated %v times", allocs)
	}
}
