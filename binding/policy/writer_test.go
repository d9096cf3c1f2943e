package policy

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

var t0 = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

// status builds a Binding condition list whose probes and Ready carry the
// given reason (OK means all True).
func status(gen int64, reason string) []metav1.Condition {
	st := metav1.ConditionTrue
	if reason != "OK" {
		st = metav1.ConditionFalse
	}
	at := metav1.NewTime(t0.Add(-time.Hour))
	ready := reason
	if reason != "OK" {
		ready = "BackendReachable:" + reason
	}
	return []metav1.Condition{
		{Type: "Accepted", Status: metav1.ConditionTrue, Reason: "OK", ObservedGeneration: gen, LastTransitionTime: at},
		{Type: "BackendReachable", Status: st, Reason: reason, ObservedGeneration: gen, LastTransitionTime: at},
		{Type: "ChannelJoined", Status: metav1.ConditionTrue, Reason: "OK", ObservedGeneration: gen, LastTransitionTime: at},
		{Type: "Ready", Status: st, Reason: ready, ObservedGeneration: gen, LastTransitionTime: at},
	}
}

func TestDecide_Standby_ComputesButNeverWrites(t *testing.T) {
	d := DefaultLimits().Decide(WriterInput{Object: status(1, "OK"), Computed: status(1, "Unreachable"), Now: t0})
	assert.Equal(t, None, d.Action)
	assert.Equal(t, LogStandby, d.Log)
}

func TestDecide_UnchangedStatus_NoWrite(t *testing.T) {
	m := Memory{Written: status(1, "OK"), LastEnd: t0.Add(-time.Second)}
	d := DefaultLimits().Decide(WriterInput{Object: status(1, "OK"), Computed: status(1, "OK"), Memory: &m, Leader: true, Now: t0})
	assert.Equal(t, Decision{Action: None, Log: LogUnchanged}, d)
}

// A new leader's engine keeps a good status instead of writing Pending
// over it; the writer then sees nothing to write and must
// not write its empty memory's idea of the status.
func TestDecide_NewLeader_NoPendingOverGoodStatus(t *testing.T) {
	good := status(3, "OK")
	d := DefaultLimits().Decide(WriterInput{Object: good, Computed: good, Leader: true, Now: t0})
	assert.Equal(t, None, d.Action)
}

func TestDecide_NeverWritten_WritesAtOnce(t *testing.T) {
	d := DefaultLimits().Decide(WriterInput{Computed: status(1, "OK"), Leader: true, Now: t0})
	assert.Equal(t, Decision{Action: Write, At: t0, Log: LogChanged}, d)
}

func TestDecide_WithinGap_WaitsGapFromLastEnd(t *testing.T) {
	m := Memory{Written: status(1, "OK"), LastEnd: t0.Add(-3 * time.Second)}
	d := DefaultLimits().Decide(WriterInput{Object: status(1, "OK"), Computed: status(1, "Unreachable"), Memory: &m, Leader: true, Now: t0})
	assert.Equal(t, Decision{Action: Wait, At: t0.Add(7 * time.Second), Log: LogGap}, d)
}

func TestDecide_GapPassed_Writes(t *testing.T) {
	m := Memory{Written: status(1, "OK"), LastEnd: t0.Add(-10 * time.Second)}
	d := DefaultLimits().Decide(WriterInput{Object: status(1, "OK"), Computed: status(1, "Unreachable"), Memory: &m, Leader: true, Now: t0})
	assert.Equal(t, Write, d.Action)
	assert.Equal(t, t0, d.At)
}

// Decisions §11.14: the wait ends at the exact instant of its inputs, not
// at a tick boundary.
func TestDecide_WaitEndsAtTheExactInstant(t *testing.T) {
	m := Memory{Written: status(1, "OK"), LastEnd: t0.Add(300*time.Millisecond + 7)}
	now := t0.Add(2 * time.Second)
	d := DefaultLimits().Decide(WriterInput{Object: status(1, "OK"), Computed: status(1, "Unreachable"), Memory: &m, Leader: true, Now: now})
	assert.Equal(t, Decision{Action: Wait, At: t0.Add(10*time.Second + 300*time.Millisecond + 7), Log: LogGap}, d)
}

// withForeign returns conds with another controller's condition inserted
// at index at.
func withForeign(conds []metav1.Condition, at int) []metav1.Condition {
	other := metav1.Condition{Type: "example.com/Audited", Status: metav1.ConditionTrue, Reason: "Seen",
		LastTransitionTime: metav1.NewTime(t0.Add(-2 * time.Hour))}
	out := append([]metav1.Condition(nil), conds[:at]...)
	out = append(out, other)
	return append(out, conds[at:]...)
}

// Decisions §11.10: another controller's condition, wherever the API
// server keeps it among ours, never makes a write due. The engine puts it
// after ours in the computed list; the object may hold it anywhere.
func TestDecide_OtherControllersConditionAnywhere_NoWrite(t *testing.T) {
	l := DefaultLimits()
	computed := withForeign(status(1, "OK"), 4)
	for at := 0; at <= 4; at++ {
		object := withForeign(status(1, "OK"), at)
		for _, mem := range []*Memory{nil, {Written: status(1, "OK"), LastEnd: t0.Add(-time.Hour)}, {Written: computed, LastEnd: t0.Add(-time.Second)}} {
			d := l.Decide(WriterInput{Object: object, Computed: computed, Memory: mem, Leader: true, Now: t0})
			assert.Equal(t, Decision{Action: None, Log: LogUnchanged}, d, "other condition at %d, memory %v", at, mem != nil)
		}
	}
}

// The same host, called again and again with the object's whole list
// where another controller's condition stands before ours, writes once
// for a change and then never again (the loop this guards against wrote 12 times
// in 2 minutes).
func TestDecide_LoopWithOtherConditionFirst_Converges(t *testing.T) {
	l := DefaultLimits()
	object := withForeign(status(1, "OK"), 0)
	computed := withForeign(status(1, "Unreachable"), 4)
	var mem Memory
	writes := 0
	for now := t0; now.Before(t0.Add(2 * time.Minute)); now = now.Add(l.WriterTick) {
		d := l.Decide(WriterInput{Object: object, Computed: computed, Memory: &mem, Leader: true, Now: now})
		mem = l.Observe(mem, d, object, now)
		if d.Action == Write {
			writes++
			// The API server merges ours by type and keeps the other
			// condition first.
			object = withForeign(status(1, "Unreachable"), 0)
			mem = mem.Wrote(computed, now)
		}
	}
	assert.Equal(t, 1, writes)
}

// Order alone never makes a write due: our own conditions out of their
// order, the same otherwise, are no change, and no foreign edit either.
func TestDecide_OurConditionsOutOfOrder_None(t *testing.T) {
	s := status(1, "OK")
	object := []metav1.Condition{s[3], s[0], s[1], s[2]}
	d := DefaultLimits().Decide(WriterInput{Object: object, Computed: s, Leader: true, Now: t0})
	assert.Equal(t, None, d.Action)
	assert.Equal(t, LogUnchanged, d.Log)

	// A real change is still one, and an object whose only difference
	// from the last write is order is no foreign edit.
	m := Memory{Written: s, LastEnd: t0.Add(-time.Minute)}
	d = DefaultLimits().Decide(WriterInput{Object: object, Computed: status(1, "Unreachable"), Memory: &m, Leader: true, Now: t0})
	assert.Equal(t, Write, d.Action)
	assert.False(t, d.ForeignEdit)
}

func TestDecide_FailedWrites_BackOffGapThenDoublingToCap(t *testing.T) {
	l := DefaultLimits()
	s := time.Second
	want := []time.Duration{10 * s, 20 * s, 40 * s, 80 * s, 160 * s, 300 * s, 300 * s, 300 * s}
	for i, w := range want {
		m := Memory{LastEnd: t0, Failures: i + 1}
		d := l.Decide(WriterInput{Computed: status(1, "OK"), Memory: &m, Leader: true, Now: t0.Add(time.Second)})
		assert.Equal(t, Wait, d.Action, "failures=%d", i+1)
		assert.Equal(t, t0.Add(w), d.At, "failures=%d", i+1)
		if i > 0 {
			assert.Equal(t, LogBackoff, d.Log)
		}
	}
}

func TestDecide_LastEndAfterNow_WaitsOneWaitFromNow(t *testing.T) {
	m := Memory{Written: status(1, "OK"), LastEnd: t0.Add(24 * time.Hour)}
	d := DefaultLimits().Decide(WriterInput{Object: status(1, "OK"), Computed: status(1, "Unreachable"), Memory: &m, Leader: true, Now: t0})
	assert.Equal(t, Decision{Action: Wait, At: t0.Add(10 * time.Second), Log: LogClockBehind}, d)
}

func TestDecide_ZeroNow_DecidesNothing(t *testing.T) {
	d := DefaultLimits().Decide(WriterInput{Computed: status(1, "OK"), Leader: true})
	assert.Equal(t, Decision{Action: None, Log: LogNoTime}, d)
}

func TestDecide_ForeignEdit_PutBackOnceUnderGap(t *testing.T) {
	l := DefaultLimits()
	ours := status(1, "Unreachable")
	edited := status(1, "OK") // someone claims it is fine
	m := Memory{Written: ours, LastEnd: t0.Add(-5 * time.Second)}
	in := WriterInput{Object: edited, Computed: ours, Memory: &m, Leader: true, Now: t0}
	d := l.Decide(in)
	assert.Equal(t, Decision{Action: Wait, At: t0.Add(5 * time.Second), ForeignEdit: true, Log: LogGap}, d)

	m = l.Observe(m, d, edited, t0)
	in.Now = t0.Add(5 * time.Second)
	d = l.Decide(in)
	assert.Equal(t, Decision{Action: Write, At: in.Now, Log: LogPutBack}, d, "the same edit is counted once")

	m = m.Wrote(ours, in.Now)
	in.Object, in.Now = ours, in.Now.Add(time.Second)
	assert.Equal(t, None, l.Decide(in).Action, "put back once, then quiet")
}

func TestDecide_OtherControllersCondition_NotAForeignEdit(t *testing.T) {
	ours := status(1, "OK")
	withOther := append(status(1, "OK"), metav1.Condition{Type: "example.com/Audited", Status: metav1.ConditionTrue, Reason: "Seen"})
	newer := status(2, "OK")
	newer = append(newer, withOther[4])
	m := Memory{Written: ours, LastEnd: t0.Add(-time.Minute)}
	d := DefaultLimits().Decide(WriterInput{Object: withOther, Computed: newer, Memory: &m, Leader: true, Now: t0})
	assert.Equal(t, Write, d.Action)
	assert.False(t, d.ForeignEdit)
	assert.Equal(t, LogChanged, d.Log)
}

func TestDecide_StatusEqualToComputed_NotAForeignEdit(t *testing.T) {
	// Another replica (the old leader) wrote what this one computes.
	m := Memory{Written: status(1, "OK"), LastEnd: t0.Add(-time.Minute)}
	d := DefaultLimits().Decide(WriterInput{Object: status(1, "Unreachable"), Computed: status(1, "Unreachable"), Memory: &m, Leader: true, Now: t0})
	assert.Equal(t, Decision{Action: None, Log: LogUnchanged}, d)
}

// fightRound plays one foreign edit at now and the writer's put-back as
// soon as it is allowed, returning the memory after and the put-back time.
func fightRound(t *testing.T, l Limits, m Memory, now time.Time) (Memory, Decision, time.Time) {
	t.Helper()
	ours, edited := status(1, "Unreachable"), status(1, "OK")
	in := WriterInput{Object: edited, Computed: ours, Memory: &m, Leader: true, Now: now}
	first := l.Decide(in)
	require.True(t, first.ForeignEdit)
	m = l.Observe(m, first, edited, now)
	at := first.At
	if first.Action == Wait {
		in.Now = at
		d := l.Decide(in)
		require.Equal(t, Write, d.Action)
		require.False(t, d.ForeignEdit)
	}
	return m.Wrote(ours, at), first, at
}

func TestDecide_ThreeEditsInWindow_FightAndSlowerPutBacks(t *testing.T) {
	l := DefaultLimits()
	m := Memory{Written: status(1, "Unreachable"), LastEnd: t0.Add(-time.Hour)}
	now := t0
	var spacing []time.Duration
	var fights []bool
	begins := 0
	for range 7 {
		var d Decision
		var at time.Time
		m, d, at = fightRound(t, l, m, now)
		spacing = append(spacing, at.Sub(now))
		fights = append(fights, d.Fight)
		if d.FightBegins {
			begins++
		}
		now = at // the other writer edits again at once
	}
	s := time.Second
	assert.Equal(t, []bool{false, false, true, true, true, true, true}, fights)
	assert.Equal(t, 1, begins, "a fight begins once")
	assert.Equal(t, []time.Duration{0, 10 * s, 10 * s, 20 * s, 40 * s, 80 * s, 160 * s}, spacing)
}

func TestDecide_FightEndsAfterQuiet(t *testing.T) {
	l := DefaultLimits()
	m := Memory{Written: status(1, "Unreachable"), LastEnd: t0.Add(-time.Hour)}
	now := t0
	for range 3 {
		var at time.Time
		m, _, at = fightRound(t, l, m, now)
		now = at
	}
	require.False(t, m.FightSince.IsZero())
	quiet := m.LastForeign.Add(l.Quiet)
	in := WriterInput{Object: m.Written, Computed: m.Written, Memory: &m, Leader: true, Now: quiet.Add(-time.Second)}
	assert.True(t, l.Decide(in).Fight, "still a fight a second before the quiet ends")
	in.Now = quiet
	d := l.Decide(in)
	assert.False(t, d.Fight)
	m = l.Observe(m, d, in.Object, in.Now)
	assert.True(t, m.FightSince.IsZero())
	assert.Zero(t, m.FightEdits)

	// The next edit after the quiet is put back after one gap again.
	_, d, at := fightRound(t, l, m, quiet.Add(time.Minute))
	assert.False(t, d.Fight)
	assert.Equal(t, quiet.Add(time.Minute), at)
}

func TestDecide_EditsOutsideWindow_NoFight(t *testing.T) {
	l := DefaultLimits()
	m := Memory{Written: status(1, "Unreachable"), LastEnd: t0.Add(-time.Hour)}
	now := t0
	for range 5 {
		var d Decision
		m, d, _ = fightRound(t, l, m, now)
		assert.False(t, d.Fight, "edits %s apart", 6*time.Minute)
		now = now.Add(6 * time.Minute)
	}
}

func TestMemory_Failed_CountsAndSaturates(t *testing.T) {
	m := Memory{Failures: maxFailures}
	m = m.Failed(t0)
	assert.Equal(t, maxFailures, m.Failures)
	assert.Equal(t, t0, m.LastEnd)
	m = m.Wrote(status(1, "OK"), t0.Add(time.Second))
	assert.Zero(t, m.Failures)
}

func TestObserve_NothingToRecord_ReturnsSameMemory(t *testing.T) {
	l := DefaultLimits()
	m := Memory{Written: status(1, "OK"), LastEnd: t0}
	got := l.Observe(m, Decision{Action: None}, m.Written, t0.Add(time.Minute))
	assert.Equal(t, m, got)
}

func TestAction_String(t *testing.T) {
	assert.Equal(t, "none", None.String())
	assert.Equal(t, "wait", Wait.String())
	assert.Equal(t, "write", Write.String())
	assert.Equal(t, "unknown", Action(9).String())
}

func TestDecide_ForeignEditClearingStatus_Counted(t *testing.T) {
	l := DefaultLimits()
	ours := status(1, "OK")
	m := Memory{Written: ours, LastEnd: t0.Add(-time.Minute)}
	in := WriterInput{Object: nil, Computed: ours, Memory: &m, Leader: true, Now: t0}
	d := l.Decide(in)
	assert.True(t, d.ForeignEdit)
	assert.Equal(t, Write, d.Action)
	m = l.Observe(m, d, nil, t0)
	assert.NotNil(t, m.Foreign)
	assert.Len(t, m.Edits, 1)
	assert.False(t, l.Decide(in).ForeignEdit, "counted once")
}

func TestDecide_FarTimes_NoPanicAndSane(t *testing.T) {
	l := DefaultLimits()
	early := time.Date(1, 1, 1, 0, 0, 1, 0, time.UTC)
	late := time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)
	ours := status(1, "OK")
	changed := status(1, "Unreachable")
	tests := []struct {
		name    string
		lastEnd time.Time
		now     time.Time
		want    Decision
	}{
		{"LastWriteLongAgo", early, late, Decision{Action: Write, At: late, Log: LogChanged}},
		{"LastWriteFarAhead", late, early, Decision{Action: Wait, At: early.Add(10 * time.Second), Log: LogClockBehind}},
		{"NowAtTheEndOfTime", late.Add(-5 * time.Second), late, Decision{Action: Wait, At: late.Add(5 * time.Second), Log: LogGap}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := Memory{Written: ours, LastEnd: tc.lastEnd}
			d := l.Decide(WriterInput{Object: ours, Computed: changed, Memory: &m, Leader: true, Now: tc.now})
			assert.Equal(t, tc.want, d)
		})
	}
}

func TestNextPass_FarTimes(t *testing.T) {
	l := DefaultLimits()
	late := time.Date(9999, 12, 31, 23, 59, 0, 0, time.UTC)
	s := ProberState{NotBefore: late}
	d := l.NextPass(s, t0)
	// A NotBefore further than StartupList ahead comes from a clock
	// stepped back: the prober lists StartupList after now at the latest.
	assert.Equal(t, PassDecision{At: t0.Add(l.StartupList), Cause: CausePeriodic}, d)
	d = l.NextPass(s, late.Add(-time.Second))
	assert.Equal(t, PassDecision{At: late, Cause: CausePeriodic}, d, "no pass before the prober lists the Bindings")
	// A trigger stamped after now (a clock stepped back) counts as now: it
	// neither holds the period back nor waits for the clock to come back.
	s = ProberState{}.Started(t0).Finished().Trigger(TriggerConfig, late)
	d = l.NextPass(s, t0.Add(time.Minute))
	assert.Equal(t, PassDecision{Start: true, At: t0.Add(time.Minute), Cause: CauseConfig}, d)
}

func TestDecide_FightWindowEdge(t *testing.T) {
	l := DefaultLimits()
	for _, tc := range []struct {
		third time.Duration
		fight bool
	}{{10*time.Minute - time.Second, true}, {10 * time.Minute, false}} {
		m := Memory{Written: status(1, "Unreachable"), LastEnd: t0.Add(-time.Hour),
			Edits: []time.Time{t0, t0.Add(5 * time.Minute)}, LastForeign: t0.Add(5 * time.Minute),
			Foreign: status(1, "AgentNotFound")}
		d := l.Decide(WriterInput{Object: status(1, "OK"), Computed: status(1, "Unreachable"), Memory: &m,
			Leader: true, Now: t0.Add(tc.third)})
		assert.True(t, d.ForeignEdit)
		assert.Equal(t, tc.fight, d.Fight, "third edit %s after the first", tc.third)
		assert.Equal(t, tc.fight, d.FightBegins)
	}
}
