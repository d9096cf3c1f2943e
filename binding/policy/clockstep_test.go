package policy

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"
)

// step is one decision of a host that keeps its memory between ticks.
type step struct {
	At       time.Time
	Action   Action
	WaitTill time.Time
}

// decideUntilWrite runs the writer as a host does after the clock read
// now: decide, observe, and, on a wait, decide again at the instant the
// wait ends, until it writes. It stops after limit decisions.
func decideUntilWrite(l Limits, m Memory, object, computed []metav1.Condition, now time.Time, limit int) ([]step, Memory) {
	var steps []step
	for range limit {
		d := l.Decide(WriterInput{Object: object, Computed: computed, Memory: &m, Leader: true, Now: now})
		m = l.Observe(m, d, object, now)
		s := step{At: now, Action: d.Action}
		if d.Action == Wait {
			s.WaitTill = d.At
		}
		steps = append(steps, s)
		if d.Action != Wait {
			break
		}
		now = d.At
	}
	return steps, m
}

// After a backward step of the clock, the writer counts its wait from the
// first decision that finds the last write ending after now: it writes
// one wait after that decision, not once the clock is back where the last
// write ended.
func TestDecide_ClockSteppedBack(t *testing.T) {
	l := DefaultLimits()
	ours, changed := status(1, "OK"), status(1, "Unreachable")
	s := time.Second
	behind := t0.Add(-7 * time.Minute) // 09:53:00, the last attempt ended at 10:00:00
	tests := []struct {
		name     string
		mem      Memory
		object   []metav1.Condition
		now      time.Time
		want     []step
		wantLogs LogText
	}{
		{
			name: "FailedWriteThenSevenMinutesBack_WritesOneGapAfterTheStep",
			mem:  Memory{Written: ours, LastEnd: t0, Failures: 1},
			now:  behind, object: ours,
			want: []step{{At: behind, Action: Wait, WaitTill: behind.Add(10 * s)}, {At: behind.Add(10 * s), Action: Write}},
		},
		{
			name: "WriteThenSevenMinutesBack_WritesOneGapAfterTheStep",
			mem:  Memory{Written: ours, LastEnd: t0},
			now:  behind, object: ours,
			want: []step{{At: behind, Action: Wait, WaitTill: behind.Add(10 * s)}, {At: behind.Add(10 * s), Action: Write}},
		},
		{
			name: "FourFailuresThenAnHourBack_WaitsTheBackoffFromTheStep",
			mem:  Memory{Written: ours, LastEnd: t0, Failures: 4},
			now:  t0.Add(-time.Hour), object: ours,
			want: []step{{At: t0.Add(-time.Hour), Action: Wait, WaitTill: t0.Add(-time.Hour + 80*s)}, {At: t0.Add(-time.Hour + 80*s), Action: Write}},
		},
		{
			name: "FailuresAtTheCapThenADayBack_WaitsTheCapFromTheStep",
			mem:  Memory{Written: ours, LastEnd: t0, Failures: 40},
			now:  t0.Add(-24 * time.Hour), object: ours,
			want: []step{{At: t0.Add(-24 * time.Hour), Action: Wait, WaitTill: t0.Add(-24*time.Hour + 5*time.Minute)},
				{At: t0.Add(-24*time.Hour + 5*time.Minute), Action: Write}},
		},
		{
			name: "ThreeSecondsBack_WaitsAFullGapFromTheStep",
			mem:  Memory{Written: ours, LastEnd: t0},
			now:  t0.Add(-3 * s), object: ours,
			want: []step{{At: t0.Add(-3 * s), Action: Wait, WaitTill: t0.Add(7 * s)}, {At: t0.Add(7 * s), Action: Write}},
		},
		{
			name: "FightPutBackThenSevenMinutesBack_SpacedFromTheStep",
			mem: Memory{Written: ours, LastEnd: t0, Foreign: status(1, "ProbeTimeout"),
				Edits: []time.Time{t0.Add(-2 * time.Minute), t0.Add(-time.Minute), t0}, LastForeign: t0,
				FightSince: t0.Add(-time.Minute), FightEdits: 2},
			// A third edit, seen after the step: the put-back of the
			// fight's third edit waits 40 s, from the step.
			now: behind, object: status(1, "AgentNotFound"),
			want: []step{{At: behind, Action: Wait, WaitTill: behind.Add(40 * s)}, {At: behind.Add(40 * s), Action: Write}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := decideUntilWrite(l, tc.mem, tc.object, changed, tc.now, 10)
			assert.Equal(t, tc.want, got)
		})
	}
}

// The first decision after the step says why it waits from now; the
// memory it leaves keeps no instant after now.
func TestObserve_ClockSteppedBack_KeepsNoInstantAfterNow(t *testing.T) {
	l := DefaultLimits()
	behind := t0.Add(-7 * time.Minute)
	m := Memory{Written: status(1, "OK"), LastEnd: t0, Failures: 2, Edits: []time.Time{t0.Add(-8 * time.Minute), t0},
		LastForeign: t0, FightSince: t0, FightEdits: 1}
	edits := m.Edits
	d := l.Decide(WriterInput{Object: status(1, "OK"), Computed: status(1, "Unreachable"), Memory: &m, Leader: true, Now: behind})
	assert.Equal(t, LogClockBehind, d.Log)
	got := l.Observe(m, d, status(1, "OK"), behind)
	assert.Equal(t, behind, got.LastEnd)
	assert.Equal(t, []time.Time{t0.Add(-8 * time.Minute), behind}, got.Edits)
	assert.Equal(t, behind, got.LastForeign)
	assert.Equal(t, behind, got.FightSince)
	assert.Equal(t, 2, got.Failures, "the failures still count")
	assert.Equal(t, t0, edits[1], "the receiver's slice is not modified")
}

// Two steps back in a row: each counts from the decision that saw it.
func TestDecide_ClockSteppedBackTwice_CountsFromTheSecondStep(t *testing.T) {
	l := DefaultLimits()
	ours, changed := status(1, "OK"), status(1, "Unreachable")
	m := Memory{Written: ours, LastEnd: t0, Failures: 1}
	first := t0.Add(-7 * time.Minute)
	d := l.Decide(WriterInput{Object: ours, Computed: changed, Memory: &m, Leader: true, Now: first})
	m = l.Observe(m, d, ours, first)
	second := first.Add(-time.Hour)
	got, _ := decideUntilWrite(l, m, ours, changed, second, 10)
	assert.Equal(t, []step{{At: second, Action: Wait, WaitTill: second.Add(10 * time.Second)}, {At: second.Add(10 * time.Second), Action: Write}}, got)
}

// A fight whose last edit is stamped after now ends a full Quiet after
// the step, not Quiet after the clock comes back to the edit.
func TestDecide_ClockSteppedBack_FightEndsQuietAfterTheStep(t *testing.T) {
	l := DefaultLimits()
	ours := status(1, "OK")
	m := Memory{Written: ours, LastEnd: t0, Edits: []time.Time{t0}, LastForeign: t0, FightSince: t0, FightEdits: 3}
	behind := t0.Add(-time.Hour)
	d := l.Decide(WriterInput{Object: ours, Computed: ours, Memory: &m, Leader: true, Now: behind})
	require.True(t, d.Fight)
	m = l.Observe(m, d, ours, behind)
	after := behind.Add(l.Quiet)
	d = l.Decide(WriterInput{Object: ours, Computed: ours, Memory: &m, Leader: true, Now: after})
	assert.False(t, d.Fight, "a full Quiet passed since the step")
}

// The longest wait the writer ever asks for: its gap, its backoff and
// the spacing of put-backs are each capped by BackoffCap.
func longestWait(l Limits) time.Duration { return max(l.WriteGap, l.BackoffCap) }

// After any backward step of the clock, a host that decides again when
// each wait ends writes no later than the longest wait after the step,
// and no sooner than one gap after it: the step neither freezes the
// writer nor opens a write inside a gap. Every wait on the way is at
// most the longest wait from its own now.
func TestDecide_PropertyClockSteppedBack_WritesWithinTheLongestWait(t *testing.T) {
	l := DefaultLimits()
	rapid.Check(t, func(t *rapid.T) {
		end := t0.Add(time.Duration(rapid.Int64Range(0, int64(time.Hour)).Draw(t, "end")))
		m := genMemory(t, end)
		if m == nil {
			m = &Memory{}
		}
		m.LastEnd = end
		// Every instant the memory holds is at or before the last write's
		// end, the latest thing the writer did before the step.
		for i, e := range m.Edits {
			if e.After(end) {
				m.Edits[i] = end
			}
		}
		if m.LastForeign.After(end) {
			m.LastForeign = end
		}
		if m.FightSince.After(end) {
			m.FightSince = end
		}
		back := time.Duration(rapid.Int64Range(1, int64(48*time.Hour)).Draw(t, "back"))
		now := end.Add(-back)
		computed := status(1, "Unreachable")
		object := status(1, rapid.SampledFrom([]string{"OK", "AgentNotFound", "ProbeTimeout"}).Draw(t, "object"))
		steps, _ := decideUntilWrite(l, *m, object, computed, now, 20)
		last := steps[len(steps)-1]
		if last.Action != Write {
			t.Fatalf("no write after %d decisions: %+v", len(steps), steps)
		}
		for _, s := range steps {
			if s.Action == Wait && s.WaitTill.Sub(s.At) > longestWait(l) {
				t.Fatalf("a wait of %v at %v exceeds the longest wait %v", s.WaitTill.Sub(s.At), s.At, longestWait(l))
			}
		}
		if w := last.At.Sub(now); w > longestWait(l) {
			t.Fatalf("written %v after the step (at %v, stepped back %v from %v): longer than the longest wait %v",
				w, last.At, back, end, longestWait(l))
		}
		if w := last.At.Sub(now); w < l.WriteGap {
			t.Fatalf("written %v after the step, inside a gap", w)
		}
	})
}

// passStep is one decision of a prober that keeps its state between
// ticks.
type passStep struct {
	At    time.Time
	Start bool
	Due   time.Time
	Cause Cause
}

// decideUntilPass runs the prober as a host does after the clock read
// now: decide with DecidePass, keep the state it returns and, when no
// pass starts, decide again when the next one is due, until one starts.
// It stops after limit decisions.
func decideUntilPass(l Limits, s ProberState, now time.Time, limit int) []passStep {
	var steps []passStep
	for range limit {
		var d PassDecision
		d, s = l.DecidePass(s, now)
		steps = append(steps, passStep{At: now, Start: d.Start, Due: d.At, Cause: d.Cause})
		if d.Start || d.At.IsZero() {
			break
		}
		now = d.At
	}
	return steps
}

// After a backward step of the clock, the prober counts its spacing,
// rate limits and period from the first tick that saw the step.
func TestDecidePass_ClockSteppedBack(t *testing.T) {
	l := DefaultLimits()
	s := time.Second
	behind := t0.Add(-7 * time.Minute) // 09:53:00; the last pass started at 10:00:00
	ran := ProberState{}.Trigger(TriggerConfig, t0).Started(t0).Finished()
	tests := []struct {
		name  string
		state ProberState
		now   time.Time
		want  []passStep
	}{
		{
			name:  "PassThenSevenMinutesBack_PeriodicPassOnePeriodAfterTheStep",
			state: ran, now: behind,
			want: []passStep{{At: behind, Due: behind.Add(5 * time.Minute), Cause: CausePeriodic},
				{At: behind.Add(5 * time.Minute), Start: true, Due: behind.Add(5 * time.Minute), Cause: CausePeriodic}},
		},
		{
			name:  "ConfigChangeAfterTheStep_HeldBySpacingAndRateLimitFromTheStep",
			state: ran.Trigger(TriggerConfig, behind), now: behind,
			want: []passStep{{At: behind, Due: behind.Add(30 * s), Cause: CauseConfig},
				{At: behind.Add(30 * s), Start: true, Due: behind.Add(30 * s), Cause: CauseConfig}},
		},
		{
			name:  "TriggerStampedBeforeTheStep_CountsAsNow",
			state: ran.Trigger(TriggerSecret, t0.Add(2*s)), now: behind,
			want: []passStep{{At: behind, Due: behind.Add(30 * s), Cause: CauseSecret},
				{At: behind.Add(30 * s), Start: true, Due: behind.Add(30 * s), Cause: CauseSecret}},
		},
		{
			name:  "BrokerStartedThenSevenMinutesBack_ListsStartupListAfterTheStep",
			state: ProberState{NotBefore: t0.Add(l.StartupList)}.Trigger(TriggerLeaderStart, t0), now: behind,
			want: []passStep{{At: behind, Due: behind.Add(15 * s), Cause: CauseLeaderStart},
				{At: behind.Add(15 * s), Start: true, Due: behind.Add(15 * s), Cause: CauseLeaderStart}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, decideUntilPass(l, tc.state, tc.now, 10))
		})
	}
}

// A pass started on the state DecidePass returned covers a trigger
// stamped after the step: the config it reads is newer than the trigger.
func TestDecidePass_ClockSteppedBack_PassCoversTriggersStampedAfterNow(t *testing.T) {
	l := DefaultLimits()
	behind := t0.Add(-time.Hour)
	d, s := l.DecidePass(ProberState{}.Trigger(TriggerConfig, t0), behind)
	require.True(t, d.Start)
	s = s.Started(behind)
	assert.True(t, s.Pending[TriggerConfig].IsZero())
	assert.Equal(t, behind, s.LastBy[TriggerConfig])
}

// NextPass answers as DecidePass does, on any state and at any instant.
func TestNextPass_PropertyAnswersAsDecidePass(t *testing.T) {
	l := DefaultLimits()
	rapid.Check(t, func(t *rapid.T) {
		s := genProberState(t, t0)
		now := t0.Add(time.Duration(rapid.Int64Range(-int64(48*time.Hour), int64(48*time.Hour)).Draw(t, "now")))
		d, _ := l.DecidePass(s, now)
		if n := l.NextPass(s, now); n != d {
			t.Fatalf("NextPass %+v, DecidePass %+v", n, d)
		}
	})
}

// genProberState draws a prober state whose instants are at or before
// end, as a prober that last acted at end keeps it.
func genProberState(t *rapid.T, end time.Time) ProberState {
	ago := func(label string) time.Time {
		if rapid.Bool().Draw(t, label+"-none") {
			return time.Time{}
		}
		return end.Add(-time.Duration(rapid.Int64Range(0, int64(time.Hour)).Draw(t, label)))
	}
	s := ProberState{NotBefore: ago("not-before"), LastStart: ago("last-start")}
	for k := range numTriggers {
		s.Pending[k] = ago(fmt.Sprint("pending", k))
		s.LastBy[k] = ago(fmt.Sprint("last-by", k))
	}
	if rapid.Bool().Draw(t, "listing-ahead") {
		s.NotBefore = end.Add(time.Duration(rapid.Int64Range(0, int64(time.Minute)).Draw(t, "listing-in")))
	}
	return s
}

// The longest the prober ever waits for a pass: its period, its spacing,
// a rate limit, or the first listing.
func longestPassWait(l Limits) time.Duration {
	return max(l.Period, l.PassSpacing, l.TriggerRateLimit, l.StartupList)
}

// After any backward step of the clock, a prober that decides again when
// each pass falls due starts one no later than its longest wait after the
// step, and no sooner than the spacing after the last pass's start, or
// after the step when that start lies beyond it:
// the step neither stalls the prober nor starts a pass early.
func TestDecidePass_PropertyClockSteppedBack_PassWithinTheLongestWait(t *testing.T) {
	l := DefaultLimits()
	rapid.Check(t, func(t *rapid.T) {
		end := t0.Add(time.Duration(rapid.Int64Range(0, int64(time.Hour)).Draw(t, "end")))
		s := genProberState(t, end)
		back := time.Duration(rapid.Int64Range(1, int64(48*time.Hour)).Draw(t, "back"))
		now := end.Add(-back)
		steps := decideUntilPass(l, s, now, 20)
		last := steps[len(steps)-1]
		if !last.Start {
			t.Fatalf("no pass after %d decisions: %+v", len(steps), steps)
		}
		for _, p := range steps {
			if !p.Start && p.Due.Sub(p.At) > longestPassWait(l) {
				t.Fatalf("a pass due %v after %v exceeds the longest wait %v", p.Due.Sub(p.At), p.At, longestPassWait(l))
			}
		}
		if w := last.At.Sub(now); w > longestPassWait(l) {
			t.Fatalf("a pass started %v after the step (stepped back %v from %v): longer than the longest wait %v", w, back, end, longestPassWait(l))
		}
		if from := earliest(s.LastStart, now); !from.IsZero() && last.At.Sub(from) < l.PassSpacing {
			t.Fatalf("a pass started %v after the last one (or the step), within the spacing", last.At.Sub(from))
		}
	})
}
