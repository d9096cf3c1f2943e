package policy

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/types"
)

func TestNextPass_NoPassYet_StartsAtOnce(t *testing.T) {
	d := DefaultLimits().NextPass(ProberState{}, t0)
	assert.Equal(t, PassDecision{Start: true, At: t0, Cause: CausePeriodic}, d)
}

func TestNextPass_LeaderStart_WaitsForStartupList(t *testing.T) {
	l := DefaultLimits()
	s := ProberState{NotBefore: t0.Add(l.StartupList)}.Trigger(TriggerLeaderStart, t0)
	d := l.NextPass(s, t0.Add(5*time.Second))
	assert.Equal(t, PassDecision{At: t0.Add(15 * time.Second), Cause: CauseLeaderStart}, d)
	d = l.NextPass(s, t0.Add(15*time.Second))
	assert.True(t, d.Start)
	assert.Equal(t, CauseLeaderStart, d.Cause)
}

func TestNextPass_WhilePassRuns_NeverStarts(t *testing.T) {
	s := ProberState{}.Started(t0).Trigger(TriggerConfig, t0.Add(time.Minute))
	d := DefaultLimits().NextPass(s, t0.Add(time.Hour))
	assert.Equal(t, PassDecision{Cause: CauseNone}, d)
}

func TestNextPass_Periodic_FiveMinutesAfterLastStart(t *testing.T) {
	s := ProberState{}.Started(t0).Finished()
	l := DefaultLimits()
	assert.Equal(t, PassDecision{At: t0.Add(5 * time.Minute), Cause: CausePeriodic}, l.NextPass(s, t0.Add(time.Minute)))
	assert.True(t, l.NextPass(s, t0.Add(5*time.Minute)).Start)
}

func TestNextPass_ConfigChange_NotWithinSpacingOfLastStart(t *testing.T) {
	l := DefaultLimits()
	s := ProberState{}.Started(t0).Finished().Trigger(TriggerConfig, t0.Add(3*time.Second))
	d := l.NextPass(s, t0.Add(10*time.Second))
	assert.Equal(t, PassDecision{At: t0.Add(30 * time.Second), Cause: CauseConfig}, d)
	assert.True(t, l.NextPass(s, t0.Add(30*time.Second)).Start)
}

func TestNextPass_TriggerRateLimit_OncePer30s(t *testing.T) {
	l := DefaultLimits()
	l.PassSpacing = 5 * time.Second // let the rate limit be the binding rule
	s := ProberState{}.Trigger(TriggerSecret, t0).Started(t0).Finished()
	assert.Equal(t, t0, s.LastBy[TriggerSecret])
	s = s.Trigger(TriggerSecret, t0.Add(6*time.Second))
	d := l.NextPass(s, t0.Add(10*time.Second))
	assert.Equal(t, PassDecision{At: t0.Add(30 * time.Second), Cause: CauseSecret}, d)
	// Another kind of trigger is not held by the Secret's limit.
	s = s.Trigger(TriggerConfig, t0.Add(7*time.Second))
	d = l.NextPass(s, t0.Add(10*time.Second))
	assert.Equal(t, PassDecision{Start: true, At: t0.Add(10 * time.Second), Cause: CauseConfig}, d)
}

// Decisions §11.14: a pass falls due at the exact instant, not at a tick.
func TestNextPass_DueAtTheExactInstant(t *testing.T) {
	l := DefaultLimits()
	s := ProberState{}.Started(t0.Add(1200*time.Millisecond)).Finished().Trigger(TriggerConfig, t0.Add(2*time.Second))
	d := l.NextPass(s, t0.Add(3*time.Second))
	assert.Equal(t, PassDecision{At: t0.Add(31200 * time.Millisecond), Cause: CauseConfig}, d, "30 s after the last start")
}

func TestNextPass_LastStartAfterNow_CountsFromNow(t *testing.T) {
	s := ProberState{}.Started(t0.Add(time.Hour)).Finished()
	d := DefaultLimits().NextPass(s, t0)
	assert.Equal(t, PassDecision{At: t0.Add(5 * time.Minute), Cause: CausePeriodic}, d)
}

func TestProberState_StartedCoversEarlierTriggersOnly(t *testing.T) {
	s := ProberState{}.Trigger(TriggerConfig, t0).Trigger(TriggerSecret, t0.Add(time.Minute)).Started(t0.Add(time.Second))
	assert.True(t, s.Pending[TriggerConfig].IsZero())
	assert.Equal(t, t0.Add(time.Minute), s.Pending[TriggerSecret], "a trigger after the start is not covered")
}

func TestProberState_TriggerOrderDoesNotMatter(t *testing.T) {
	a := ProberState{}.Trigger(TriggerConfig, t0.Add(time.Second)).Trigger(TriggerConfig, t0)
	b := ProberState{}.Trigger(TriggerConfig, t0).Trigger(TriggerConfig, t0.Add(time.Second))
	assert.Equal(t, a, b)
	assert.Equal(t, a, a.Trigger(Trigger(-1), t0).Trigger(numTriggers, t0).Trigger(TriggerSecret, time.Time{}))
}

func TestCause_String(t *testing.T) {
	for c, want := range map[Cause]string{CauseLeaderStart: "leader start", CauseConfig: "config change",
		CauseSecret: "secret change", CausePeriodic: "periodic", CauseNone: "none"} {
		assert.Equal(t, want, c.String())
	}
}

func TestPlan_ServedOnly_SortedDeduplicated(t *testing.T) {
	l := DefaultLimits()
	p := l.Plan([]Target{
		{Namespace: "b", Name: "x", UID: "u3", Generation: 1, Served: true},
		{Namespace: "a", Name: "y", UID: "u2", Generation: 1, Served: true},
		{Namespace: "a", Name: "not-served", UID: "u9", Generation: 1},
		{Namespace: "a", Name: "no-uid", Generation: 1, Served: true},
		{Namespace: "a", Name: "y", UID: "u2", Generation: 2, Served: true},
		{Namespace: "a", Name: "x", UID: "u1", Generation: 4, Served: true},
	})
	var got []types.UID
	for _, tg := range p.Targets {
		got = append(got, tg.UID)
	}
	assert.Equal(t, []types.UID{"u1", "u2", "u3"}, got)
	assert.Equal(t, int64(2), p.Targets[1].Generation, "the highest generation of a UID listed twice")
	assert.Equal(t, 2, p.AtOnce)
	assert.Equal(t, 20*time.Second, p.MaxDuration())
	assert.Equal(t, l.MaxPassDuration(3), p.MaxDuration())
	assert.Zero(t, l.Plan(nil).MaxDuration())
}

// The first pass names the earliest trigger that caused it, whatever the
// kinds' order; a tie goes to the kind listed first.
func TestNextPass_FirstPass_NamesEarliestTrigger(t *testing.T) {
	l := DefaultLimits()
	tests := []struct {
		name     string
		triggers map[Trigger]time.Time
		want     Cause
	}{
		{"secret before config", map[Trigger]time.Time{TriggerConfig: t0.Add(5 * time.Second), TriggerSecret: t0.Add(2 * time.Second)}, CauseSecret},
		{"config before secret", map[Trigger]time.Time{TriggerConfig: t0.Add(2 * time.Second), TriggerSecret: t0.Add(5 * time.Second)}, CauseConfig},
		{"tie goes to the first kind", map[Trigger]time.Time{TriggerConfig: t0.Add(3 * time.Second), TriggerSecret: t0.Add(3 * time.Second)}, CauseConfig},
		{"config before leader start", map[Trigger]time.Time{TriggerLeaderStart: t0.Add(4 * time.Second), TriggerConfig: t0.Add(time.Second)}, CauseConfig},
		{"no trigger is periodic", nil, CausePeriodic},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := ProberState{NotBefore: t0.Add(l.StartupList)}
			for k, at := range tt.triggers {
				s = s.Trigger(k, at)
			}
			d := l.NextPass(s, t0.Add(l.StartupList))
			assert.Equal(t, PassDecision{Start: true, At: t0.Add(l.StartupList), Cause: tt.want}, d)
		})
	}
}
