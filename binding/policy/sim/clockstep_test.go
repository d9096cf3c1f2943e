package sim

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
)

// A write fails, then the broker's clock steps back seven minutes: the
// retry comes one backoff later on the world's clock, not once the
// broker's clock is back where the failed write ended.
func TestSimulation_ClockSteppedBackAfterAFailedWrite_RetriesAfterOneBackoff(t *testing.T) {
	s, r := settled(t, Options{}, "chat")
	uid := s.Binding("team-a", "chat").UID
	s.FailWrites(uid, s.Now().Add(24*time.Hour))
	s.Edit("team-a", "chat", func(sp *akv1.BindingSpec) { sp.Chat.Channel = "C-new" })
	var failed Write
	for range 60 {
		s.Run(time.Second)
		if n := len(s.Writes); n > 0 && !s.Writes[n-1].OK && s.Writes[n-1].UID == uid {
			failed = s.Writes[n-1]
			break
		}
	}
	require.False(t, failed.At.IsZero(), "the edit's write was tried and failed")
	r.StepClock(-7 * time.Minute)
	s.FailWrites(uid, time.Time{})
	s.Run(10 * time.Minute)
	var retry *Write
	for i := range s.Writes {
		if w := &s.Writes[i]; w.UID == uid && w.At.After(failed.At) {
			retry = w
			break
		}
	}
	require.NotNil(t, retry, "the write is tried again")
	assert.True(t, retry.OK)
	l := s.Limits()
	assert.LessOrEqual(t, retry.At.Sub(failed.End), l.Backoff().Wait(1)+l.WriterTick,
		"retried %v after the failed write", retry.At.Sub(failed.End))
}

// A pass runs, then the leader's clock steps back seven minutes: the next
// periodic pass comes one period after the step on the world's clock.
func TestSimulation_ClockSteppedBackAfterAPass_NextPassOnePeriodLater(t *testing.T) {
	s, r := settled(t, Options{}, "chat")
	require.NotEmpty(t, s.Passes)
	last := s.Passes[len(s.Passes)-1]
	stepped := s.Now()
	require.Less(t, stepped.Sub(last.Start), s.Limits().Period, "the step comes before the next periodic pass is due")
	r.StepClock(-7 * time.Minute)
	s.Run(15 * time.Minute)
	var next *Pass
	for i := range s.Passes {
		if p := &s.Passes[i]; p.Start.After(last.Start) {
			next = p
			break
		}
	}
	require.NotNil(t, next, "another pass runs")
	l := s.Limits()
	assert.LessOrEqual(t, next.Start.Sub(stepped), l.Period+l.ProberTick,
		"the next pass started %v after the step", next.Start.Sub(stepped))
}
