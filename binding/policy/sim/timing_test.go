package sim

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/policy"
)

// The 20 s bound holds whatever the phase of the config reads against the
// writer's ticks.
func TestSimulation_AfterEdit_AcceptedWithin20s_AnyLookPhase(t *testing.T) {
	for _, look := range []time.Duration{300 * time.Millisecond, 3300 * time.Millisecond, 9900 * time.Millisecond} {
		for _, phase := range []time.Duration{0, 4100 * time.Millisecond, 9500 * time.Millisecond} {
			t.Run(fmt.Sprintf("look=%s/edit=%s", look, phase), func(t *testing.T) {
				s, _ := settled(t, Options{LookPhase: look}, "chat")
				edit := s.Now().Add(phase)
				s.RunUntil(edit)
				s.Edit("team-a", "chat", func(sp *akv1.BindingSpec) { sp.Chat.Channel = "C-new" })
				s.RunUntil(edit.Add(20 * time.Second))
				assert.Equal(t, int64(2), cond(s.Binding("team-a", "chat"), binding.TypeAccepted).ObservedGeneration)
			})
		}
	}
}

// A Binding deleted while a pass probes it: the pass keeps its length,
// nothing is written to the gone object or to a new one with its name,
// and nothing panics.
func TestSimulation_UIDGoneMidPass_ResultDropped(t *testing.T) {
	s := New(Options{})
	s.AddBackend("team-a", "slow", BackendBehavior{Delay: time.Hour})
	s.AddConnection("team-a", "slack")
	for i := range 4 {
		s.Create("team-a", fmt.Sprintf("b%d", i), "slow", "slack", fmt.Sprintf("C%d", i))
	}
	s.StartReplica("a")
	s.Run(16 * time.Second) // the first pass started at 15 s
	gone := s.Binding("team-a", "b0").UID
	deleted := s.Now()
	s.Delete("team-a", "b0")
	again := s.Create("team-a", "b0", "slow", "slack", "C0")
	s.Run(2 * time.Minute)
	require.NotEmpty(t, s.Passes)
	p := s.Passes[0]
	assert.Equal(t, s.Limits().MaxPassDuration(4), p.End.Sub(p.Start))
	for _, w := range s.Writes {
		if w.UID == gone && !w.At.Before(deleted) {
			assert.False(t, w.OK, "a write landed on the deleted object at %s", w.At)
		}
	}
	for _, h := range s.History("team-a", "b0") {
		if h.At.After(deleted) && h.By != "create" {
			assert.Equal(t, again, h.UID, "only the new object's own status is stored")
			for _, c := range h.Conditions {
				assert.Equal(t, int64(1), c.ObservedGeneration)
			}
		}
	}
}

// A Secret change starts a pass within the spacing and a prober tick.
func TestSimulation_SecretChange_TriggersPass(t *testing.T) {
	s, _ := settled(t, Options{}, "chat")
	before := len(s.Passes)
	at := s.Now()
	s.ChangeSecret()
	s.Run(time.Minute)
	require.Greater(t, len(s.Passes), before)
	p := s.Passes[before]
	assert.Equal(t, policy.CauseSecret, p.Cause)
	assert.LessOrEqual(t, p.Start.Sub(at), s.Limits().PassSpacing+s.Limits().ProberTick)
}

// Without triggers, passes come every period.
func TestSimulation_PeriodicPasses(t *testing.T) {
	s, _ := settled(t, Options{}, "chat")
	s.Run(16 * time.Minute)
	var starts []time.Time
	for _, p := range s.Passes {
		if p.Cause == policy.CausePeriodic {
			starts = append(starts, p.Start)
		}
	}
	require.GreaterOrEqual(t, len(starts), 3)
	for i := 1; i < len(starts); i++ {
		assert.Equal(t, s.Limits().Period, starts[i].Sub(starts[i-1]))
	}
}

// The same script gives the same history, write for write.
func TestSimulation_Deterministic(t *testing.T) {
	run := func() *Sim {
		s := New(Options{LookPhase: 1700 * time.Millisecond})
		s.AddBackend("team-a", "echo", FastOK())
		s.AddBackend("team-a", "slow", BackendBehavior{Delay: 12 * time.Second})
		s.AddConnection("team-a", "slack")
		for i := range 6 {
			be := "echo"
			if i%2 == 1 {
				be = "slow"
			}
			s.Create("team-a", fmt.Sprintf("b%d", i), be, "slack", fmt.Sprintf("C%d", i))
		}
		a := s.StartReplica("a")
		s.StartReplica("b")
		s.Run(2 * time.Minute)
		s.Edit("team-a", "b2", func(sp *akv1.BindingSpec) { sp.Chat.Channel = "C1" }) // a conflict
		a.Crash()
		s.Run(5 * time.Minute)
		return s
	}
	x, y := run(), run()
	require.NotEmpty(t, x.Writes)
	assert.True(t, reflect.DeepEqual(x.Writes, y.Writes))
	assert.True(t, reflect.DeepEqual(x.Passes, y.Passes))
	assert.Equal(t, string(binding.ReasonChannelConflict), cond(x.Binding("team-a", "b2"), binding.TypeAccepted).Reason)
}

// The bound holds also for an edit made while earlier writes are still
// holding the gap, with writes that take time.
func TestSimulation_AfterEdit_AcceptedWithin20s_WhileWritesHoldTheGap(t *testing.T) {
	for _, look := range []time.Duration{0, 4500 * time.Millisecond, 8100 * time.Millisecond} {
		for phase := time.Duration(0); phase < 12*time.Second; phase += 1500 * time.Millisecond {
			t.Run(fmt.Sprintf("look=%s/edit=%s", look, phase), func(t *testing.T) {
				s, _ := settled(t, Options{LookPhase: look, WriteLatency: 300 * time.Millisecond}, "chat")
				s.Edit("team-a", "chat", func(sp *akv1.BindingSpec) { sp.Chat.Channel = "C-new" })
				for i := 0; cond(s.Binding("team-a", "chat"), binding.TypeAccepted).ObservedGeneration != 2; i++ {
					require.Less(t, i, 300, "the first edit never showed")
					s.Run(100 * time.Millisecond)
				}
				s.Run(phase)
				edit := s.Now()
				s.Edit("team-a", "chat", func(sp *akv1.BindingSpec) { sp.Chat.Channel = "C-new2" })
				s.RunUntil(edit.Add(20 * time.Second))
				assert.Equal(t, int64(3), cond(s.Binding("team-a", "chat"), binding.TypeAccepted).ObservedGeneration)
			})
		}
	}
}
