package policy

import (
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"
)

var reasons = []string{"OK", "Unreachable", "AgentNotFound", "ProbeTimeout"}

func genStatus(t *rapid.T, label string) []metav1.Condition {
	if rapid.IntRange(0, 5).Draw(t, label+"-empty") == 0 {
		return nil
	}
	return status(rapid.Int64Range(1, 3).Draw(t, label+"-gen"), rapid.SampledFrom(reasons).Draw(t, label+"-reason"))
}

func genMemory(t *rapid.T, now time.Time) *Memory {
	if rapid.Bool().Draw(t, "no-memory") {
		return nil
	}
	m := &Memory{
		Written:  genStatus(t, "written"),
		LastEnd:  now.Add(-time.Duration(rapid.Int64Range(-int64(time.Hour), int64(48*time.Hour)).Draw(t, "since-end"))),
		Failures: rapid.IntRange(0, 100).Draw(t, "failures"),
		Foreign:  genStatus(t, "foreign"),
	}
	for i := range rapid.IntRange(0, 3).Draw(t, "edits") {
		m.Edits = append(m.Edits, now.Add(-time.Duration(rapid.Int64Range(0, int64(time.Hour)).Draw(t, fmt.Sprint("edit", i)))))
	}
	sortTimes(m.Edits)
	if len(m.Edits) > 0 {
		m.LastForeign = m.Edits[len(m.Edits)-1]
	}
	if rapid.Bool().Draw(t, "fight") && len(m.Edits) > 0 {
		m.FightSince, m.FightEdits = m.Edits[0], rapid.IntRange(1, 50).Draw(t, "fight-edits")
	}
	return m
}

// Whatever the memory, a decision is sound: only the leader writes, only
// a change is written, a wait lies in the future, and no wait is longer
// than the backoff cap.
func TestDecide_PropertySound(t *testing.T) {
	l := DefaultLimits()
	rapid.Check(t, func(t *rapid.T) {
		now := t0.Add(time.Duration(rapid.Int64Range(0, int64(time.Hour)).Draw(t, "now")))
		in := WriterInput{Object: genStatus(t, "object"), Computed: genStatus(t, "computed"),
			Memory: genMemory(t, now), Leader: rapid.Bool().Draw(t, "leader"), Now: now}
		d := l.Decide(in)
		if !in.Leader && d.Action != None {
			t.Fatalf("a standby decided %v", d.Action)
		}
		if d.Action != None && equalSets(in.Object, in.Computed) {
			t.Fatalf("decided %v on an unchanged status", d.Action)
		}
		switch d.Action {
		case Write:
			if !d.At.Equal(now) {
				t.Fatalf("write at %v, not now", d.At)
			}
		case Wait:
			if !d.At.After(now) {
				t.Fatalf("wait until %v, not after now %v", d.At, now)
			}
			from := in.Memory.LastEnd
			if from.After(now) {
				from = now
			}
			if d.At.Sub(from) > l.BackoffCap {
				t.Fatalf("wait of %v from the last write exceeds the cap", d.At.Sub(from))
			}
		case None:
			if !d.At.IsZero() {
				t.Fatalf("none with a time %v", d.At)
			}
		}
		if d.FightBegins && !d.Fight {
			t.Fatal("a fight begins but is not on")
		}
	})
}

func equalSets(a, b []metav1.Condition) bool { return len(a) == len(b) && equalOurs(a, b) }

// Driving the writer tick by tick through changes, failures and foreign
// edits, two write attempts of one Binding are never closer than the gap.
func TestDecide_PropertyNeverTwiceWithinAGap(t *testing.T) {
	l := DefaultLimits()
	rapid.Check(t, func(t *rapid.T) {
		var mem Memory
		object := []metav1.Condition(nil)
		now := t0
		var last time.Time
		for i := range 300 {
			now = now.Add(l.WriterTick)
			computed := status(1, reasons[(i/rapid.IntRange(1, 40).Draw(t, "period"))%len(reasons)])
			if rapid.IntRange(0, 30).Draw(t, "foreign") == 0 {
				object = status(1, rapid.SampledFrom(reasons).Draw(t, "forged"))
			}
			d := l.Decide(WriterInput{Object: object, Computed: computed, Memory: &mem, Leader: true, Now: now})
			mem = l.Observe(mem, d, object, now)
			if d.Action != Write {
				continue
			}
			if !last.IsZero() && now.Sub(last) < l.WriteGap {
				t.Fatalf("writes at %v and %v, %v apart", last, now, now.Sub(last))
			}
			last = now
			if rapid.IntRange(0, 3).Draw(t, "fails") == 0 {
				mem = mem.Failed(now)
			} else {
				object = computed
				mem = mem.Wrote(computed, now)
			}
		}
	})
}

// Decisions depend only on each Binding's own input: shuffling the inputs
// shuffles the decisions the same way.
func TestDecideAll_PropertyIndependentOfOrder(t *testing.T) {
	l := DefaultLimits()
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 12).Draw(t, "n")
		ins := make([]WriterInput, n)
		for i := range ins {
			ins[i] = WriterInput{Object: genStatus(t, "o"), Computed: genStatus(t, "c"), Memory: genMemory(t, t0),
				Leader: true, Now: t0}
		}
		perm := rapid.Permutation(makeRange(n)).Draw(t, "perm")
		shuffled := make([]WriterInput, n)
		for i, p := range perm {
			shuffled[i] = ins[p]
		}
		a := l.DecideAll(ins, nil)
		b := l.DecideAll(shuffled, nil)
		for i, p := range perm {
			if a[p] != b[i] {
				t.Fatalf("input %d decided %+v alone and %+v shuffled", p, a[p], b[i])
			}
		}
	})
}

func makeRange(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// The plan is the same whatever order the targets come in.
func TestPlan_PropertyIndependentOfOrder(t *testing.T) {
	l := DefaultLimits()
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 20).Draw(t, "n")
		targets := make([]Target, n)
		for i := range targets {
			targets[i] = Target{
				Namespace:  rapid.SampledFrom([]string{"a", "b"}).Draw(t, "ns"),
				Name:       rapid.SampledFrom([]string{"x", "y", "z"}).Draw(t, "name"),
				UID:        types.UID(rapid.SampledFrom([]string{"u1", "u2", "u3", ""}).Draw(t, "uid")),
				Generation: rapid.Int64Range(1, 3).Draw(t, "gen"),
				Served:     rapid.Bool().Draw(t, "served"),
			}
		}
		a := l.Plan(targets)
		b := l.Plan(rapid.Permutation(targets).Draw(t, "perm"))
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("plans differ:\n%v\n%v", a, b)
		}
		if a.MaxDuration() != l.MaxPassDuration(len(a.Targets)) {
			t.Fatal("plan and limits disagree on the longest pass")
		}
	})
}

// Run tick by tick with random triggers and pass lengths, the prober never
// starts a pass while one runs or within the spacing of the last start,
// and never lets more than a period and a tick pass between the end of one
// pass and the next start.
func TestNextPass_PropertySpacingAndPeriod(t *testing.T) {
	l := DefaultLimits()
	rapid.Check(t, func(t *rapid.T) {
		s := ProberState{NotBefore: t0.Add(l.StartupList)}.Trigger(TriggerLeaderStart, t0)
		now := t0
		var lastStart, runUntil time.Time
		for range 400 {
			now = now.Add(l.ProberTick)
			if s.Running && !now.Before(runUntil) {
				s = s.Finished()
			}
			if rapid.IntRange(0, 10).Draw(t, "trigger") == 0 {
				s = s.Trigger(Trigger(rapid.IntRange(0, int(numTriggers)-1).Draw(t, "kind")), now)
			}
			d := l.NextPass(s, now)
			if !d.Start {
				if !s.Running && !lastStart.IsZero() && now.Sub(lastStart) > l.Period+l.ProberTick+l.MaxPassDuration(5) {
					t.Fatalf("no pass since %v at %v", lastStart, now)
				}
				continue
			}
			if s.Running {
				t.Fatal("a pass started while one ran")
			}
			if now.Before(s.NotBefore) {
				t.Fatal("a pass started before the prober listed the Bindings")
			}
			if !lastStart.IsZero() && now.Sub(lastStart) < l.PassSpacing {
				t.Fatalf("passes started %v apart", now.Sub(lastStart))
			}
			lastStart = now
			s = s.Started(now)
			runUntil = now.Add(time.Duration(rapid.IntRange(0, 5).Draw(t, "waves")) * l.ProbeTimeout)
		}
	})
}
