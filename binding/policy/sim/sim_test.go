package sim

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/kubectl"
	"github.com/condengine/condengine/conditions"
)

// reachAfterEdit settles the Binding team-a/chat, edits its channel
// phase later and runs on for window; it returns the instant of the edit
// and the first status from then on whose condition typ describes
// generation 2, failing the test when there is none.
func reachAfterEdit(t *testing.T, phase, window time.Duration, typ string) (*Sim, time.Time, Status) {
	t.Helper()
	s, _ := settled(t, Options{}, "chat")
	edit := s.Now().Add(phase)
	s.RunUntil(edit)
	s.Edit("team-a", "chat", func(sp *akv1.BindingSpec) { sp.Chat.Channel = "C-new" })
	s.RunUntil(edit.Add(window))
	h, ok := first(s, "chat", edit, func(h Status) bool { return generationOf(h.Conditions, typ) == 2 })
	require.True(t, ok, "%s never reached generation 2 within %s", typ, window)
	return s, edit, h
}

// After an edit, Accepted reaches the new generation within 20 s, whatever
// the phase of the edit against the config looks and writes, while the
// probes and Ready still describe the old generation and READY stays True.
func TestSimulation_AfterEdit_AcceptedReachesNewGenerationWithin20s(t *testing.T) {
	for phase := time.Duration(0); phase < 10*time.Second; phase += 700 * time.Millisecond {
		t.Run(phase.String(), func(t *testing.T) {
			_, edit, h := reachAfterEdit(t, phase, 20*time.Second, binding.TypeAccepted)
			assert.LessOrEqual(t, h.At.Sub(edit), 20*time.Second)
			ready := conditions.Find(h.Conditions, binding.TypeReady)
			require.NotNil(t, ready)
			assert.Equal(t, metav1.ConditionTrue, ready.Status, "READY still says True")
			assert.Equal(t, int64(1), ready.ObservedGeneration, "Ready claims nothing newer than its evidence")
			assert.Equal(t, int64(1), generationOf(h.Conditions, binding.TypeBackendReachable))
		})
	}
}

// For one Binding with fast backends, Ready reflects the new generation
// within about a minute, and never before the pass that probed that
// generation has ended.
func TestSimulation_AfterEdit_ReadyFollowsWithinAMinuteAfterItsProbes(t *testing.T) {
	for phase := time.Duration(0); phase < 35*time.Second; phase += 2300 * time.Millisecond {
		t.Run(phase.String(), func(t *testing.T) {
			s, edit, h := reachAfterEdit(t, phase, 2*time.Minute, binding.TypeReady)
			assert.LessOrEqual(t, h.At.Sub(edit), 60*time.Second, "Ready at generation 2 after %s", h.At.Sub(edit))
			var probed *Pass
			for i := range s.Passes {
				p := &s.Passes[i]
				if len(p.Targets) == 1 && p.Targets[0].Generation == 2 {
					probed = p
					break
				}
			}
			require.NotNil(t, probed, "no pass probed generation 2")
			assert.False(t, h.At.Before(probed.End), "Ready moved at %s, before the probes ended at %s", h.At, probed.End)
			assert.Equal(t, "True", readyOf(s.Binding("team-a", "chat")))
		})
	}
}

// A pass over N Bindings whose backends all time out takes
// ceil(N/2) × 10 s: two Bindings at a time, four probes.
func TestSimulation_PassOverTimingOutBackends_TakesCeilHalfTimesTimeout(t *testing.T) {
	for n := 1; n <= 9; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			s := New(Options{})
			s.AddBackend("team-a", "slow", BackendBehavior{Delay: time.Hour})
			s.AddConnection("team-a", "slack")
			for i := range n {
				s.Create("team-a", fmt.Sprintf("b%02d", i), "slow", "slack", fmt.Sprintf("C%02d", i))
			}
			s.StartReplica("a")
			s.Run(5 * time.Minute)
			require.NotEmpty(t, s.Passes)
			p := s.Passes[0]
			assert.Len(t, p.Targets, n)
			want := time.Duration((n+1)/2) * 10 * time.Second
			assert.Equal(t, want, p.End.Sub(p.Start))
			assert.Equal(t, want, s.Limits().MaxPassDuration(n))
			for _, b := range s.Bindings() {
				c := cond(&b, binding.TypeBackendReachable)
				require.NotNil(t, c)
				assert.Equal(t, string(binding.ReasonProbeTimeout), c.Reason)
				assert.Equal(t, metav1.ConditionUnknown, c.Status)
			}
		})
	}
}

// A mix of fast and slow backends never takes longer than the bound.
func TestSimulation_PassWithMixedBackends_WithinBound(t *testing.T) {
	s := New(Options{})
	s.AddBackend("team-a", "slow", BackendBehavior{Delay: time.Hour})
	s.AddBackend("team-a", "mid", BackendBehavior{Delay: 4 * time.Second, Answer: FastOK().Answer})
	s.AddBackend("team-a", "echo", FastOK())
	s.AddConnection("team-a", "slack")
	for i, be := range []string{"echo", "slow", "mid", "slow", "echo", "mid", "mid"} {
		s.Create("team-a", fmt.Sprintf("b%02d", i), be, "slack", fmt.Sprintf("C%02d", i))
	}
	s.StartReplica("a")
	s.Run(2 * time.Minute)
	require.NotEmpty(t, s.Passes)
	p := s.Passes[0]
	assert.LessOrEqual(t, p.End.Sub(p.Start), s.Limits().MaxPassDuration(len(p.Targets)))
}

// A Binding deleted and made again under its name shows no status, then
// Pending, then its own probe results, and never the old object's status.
func TestSimulation_BindingMadeAgain_NoStatusThenPendingThenResults(t *testing.T) {
	s, _ := settled(t, Options{}, "chat")
	old := s.Binding("team-a", "chat")
	oldStatus := old.Status.Conditions
	s.Edit("team-a", "chat", func(sp *akv1.BindingSpec) { sp.Chat.Channel = "C-chat2" })
	s.Run(2 * time.Minute)
	s.Delete("team-a", "chat")
	s.Run(1500 * time.Millisecond)
	uid := s.Create("team-a", "chat", "echo", "slack", "C-chat")
	made := s.Now()

	rows := kubectl.Rows(s.Bindings(), s.Now())
	require.Len(t, rows, 1)
	assert.Equal(t, "", rows[0].Ready)
	assert.Equal(t, "", rows[0].Reason)

	s.Run(3 * time.Minute)
	var seen []string
	for _, h := range s.History("team-a", "chat") {
		if h.UID != uid {
			continue
		}
		if h.By == "create" {
			assert.Empty(t, h.Conditions)
			seen = append(seen, "none")
			continue
		}
		for _, c := range h.Conditions {
			assert.Equal(t, int64(1), c.ObservedGeneration, "%s claims another object's generation", c.Type)
			assert.False(t, c.LastTransitionTime.Time.Before(made.Truncate(time.Second)), "%s carries a time from before the object", c.Type)
		}
		assert.False(t, conditions.Equal(h.Conditions, oldStatus), "the old object's status came back")
		ready := conditions.Find(h.Conditions, binding.TypeReady)
		require.NotNil(t, ready)
		seen = append(seen, string(ready.Status)+" "+ready.Reason)
	}
	assert.Equal(t, []string{"none", "Unknown BackendReachable:Pending", "True OK"}, seen)
	first, ok := first(s, "chat", made, func(h Status) bool { return h.UID == uid && h.By != "create" })
	require.True(t, ok)
	assert.LessOrEqual(t, first.At.Sub(made), 11*time.Second, "picked up at the next look")
}

// After a failover the new leader writes no Pending over a good status,
// writes nothing while its results agree, and writes within one gap of its
// first results when they differ.
func TestSimulation_Failover_NoPendingOverGood_WritesResumeWithinAGap(t *testing.T) {
	for _, backendDies := range []bool{false, true} {
		t.Run(fmt.Sprintf("backendDies=%v", backendDies), func(t *testing.T) {
			s := New(Options{})
			s.AddBackend("team-a", "echo", FastOK())
			s.AddConnection("team-a", "slack")
			uid := s.Create("team-a", "chat", "echo", "slack", "C1")
			a := s.StartReplica("a")
			s.Run(5 * time.Second)
			s.StartReplica("b")
			s.Run(3 * time.Minute)
			require.Equal(t, "True", readyOf(s.Binding("team-a", "chat")))
			good := s.Binding("team-a", "chat").Status.Conditions
			if backendDies {
				s.SetBackend("team-a", "echo", BackendBehavior{Delay: 50 * time.Millisecond,
					Answer: binding.BackendObservation{Error: binding.NetErrorRefused}})
			}
			crash := s.Now()
			a.Crash()
			s.Run(5 * time.Minute)

			var firstResults time.Time
			for _, p := range s.Passes {
				if p.Replica == "b" {
					firstResults = p.End
					break
				}
			}
			require.False(t, firstResults.IsZero(), "the new leader never probed")
			for _, w := range writesBy(s, "b", uid, crash) {
				for _, c := range w.Conditions {
					assert.NotEqual(t, string(binding.ReasonPending), c.Reason, "Pending written over a good status at %s", w.At)
				}
				assert.False(t, w.At.Before(firstResults), "a write before the new leader had results")
			}
			bw := writesBy(s, "b", uid, crash)
			if !backendDies {
				assert.Empty(t, bw, "results that agree need no write")
				assert.True(t, conditions.Equal(good, s.Binding("team-a", "chat").Status.Conditions))
				return
			}
			require.NotEmpty(t, bw)
			assert.LessOrEqual(t, bw[0].At.Sub(firstResults), s.Limits().WriteGap)
			assert.Equal(t, string(binding.ReasonUnreachable), cond(s.Binding("team-a", "chat"), binding.TypeBackendReachable).Reason)
		})
	}
}

// A writer whose writes fail tries again after 10 s, then 20, 40, … up to
// the 5-minute cap, then at the cap. The first write that lands resets
// the backoff: the next change is written exactly one gap after it.
func TestSimulation_FailingWrites_BackOffToTheCapThenReset(t *testing.T) {
	s, _ := settled(t, Options{LookPhase: 500 * time.Millisecond}, "chat")
	uid := s.Binding("team-a", "chat").UID
	start := s.Now()
	s.FailWrites(uid, start.Add(time.Hour))
	s.SetBackend("team-a", "echo", BackendBehavior{Delay: 50 * time.Millisecond,
		Answer: binding.BackendObservation{HTTPStatus: 404}})
	s.Run(30 * time.Minute)
	ws := writesBy(s, "a", uid, start)
	require.Greater(t, len(ws), 8)
	var gaps []time.Duration
	for i := 1; i < 9; i++ {
		require.False(t, ws[i].OK)
		gaps = append(gaps, ws[i].At.Sub(ws[i-1].At))
	}
	sec := time.Second
	assert.Equal(t, []time.Duration{10 * sec, 20 * sec, 40 * sec, 80 * sec, 160 * sec, 300 * sec, 300 * sec, 300 * sec}, gaps)

	// The next change is made the instant the write lands; the config
	// read sees it within the gap.
	var landed time.Time
	s.AfterWrite(func(w Write) {
		if w.UID == uid && landed.IsZero() {
			landed = w.At
			s.Edit("team-a", "chat", func(sp *akv1.BindingSpec) { sp.Chat.Channel = "C-new" })
		}
	})
	s.FailWrites(uid, s.Now())
	s.Run(6 * time.Minute)
	require.False(t, landed.IsZero(), "the write lands once the API server takes it")
	after := writesBy(s, "a", uid, landed)
	require.GreaterOrEqual(t, len(after), 2)
	assert.True(t, after[0].OK)
	assert.Equal(t, string(binding.ReasonAgentNotFound), conditions.Find(after[0].Stored, binding.TypeBackendReachable).Reason)
	assert.Equal(t, landed.Add(s.Limits().WriteGap), after[1].At, "one gap after the success, not the 5-minute cap")
	assert.Equal(t, int64(2), conditions.Find(after[1].Stored, binding.TypeAccepted).ObservedGeneration)
}

// Someone who keeps changing the status starts a fight, and the writer
// does what the writer policy decides (docs/decisions/writer-policy.md): the first two
// edits are put back after one gap each, the third within ten minutes
// begins the fight (reported once, at that edit), its put-back waits one
// gap and each later one doubles the last wait, 10, 20, 40, ... up to the
// 5-minute cap. When the editor stops, the fight ends exactly ten quiet
// minutes after the last edit the writer saw, and the next edit is put
// back after one gap again.
//
// The config is read at half past a second (LookPhase), so an edit made
// at a write is always seen before the next write may happen: every
// put-back lands exactly when the policy allows it.
func TestSimulation_Fight_ExactSchedule(t *testing.T) {
	s, _ := settled(t, Options{LookPhase: 500 * time.Millisecond}, "chat")
	forged := func() []metav1.Condition {
		cs := append([]metav1.Condition(nil), s.Binding("team-a", "chat").Status.Conditions...)
		for i := range cs {
			if cs[i].Type == binding.TypeReady {
				cs[i].Status, cs[i].Reason, cs[i].Message = metav1.ConditionFalse, "Maintenance", "down for maintenance"
			}
		}
		return cs
	}
	const stopAfter = 9 // put-backs the editor answers with a new edit
	var putBacks []time.Time
	s.AfterWrite(func(w Write) {
		if w.Name != "chat" || !w.PutBack {
			return
		}
		putBacks = append(putBacks, w.At)
		if len(putBacks) < stopAfter {
			s.ForeignEdit("team-a", "chat", forged()) // at once, every time
		}
	})
	start := s.Now()
	s.ForeignEdit("team-a", "chat", forged())
	s.Run(40 * time.Minute)

	require.Len(t, putBacks, stopAfter, "every edit is put back, and only edits are")
	lim := s.Limits()
	assert.LessOrEqual(t, putBacks[0].Sub(start), lim.ConfigLook+lim.WriterTick, "the first edit is put back at the first tick after it is seen")
	var gaps []time.Duration
	for i := 1; i < len(putBacks); i++ {
		gaps = append(gaps, putBacks[i].Sub(putBacks[i-1]))
	}
	sec := time.Second
	assert.Equal(t, []time.Duration{
		10 * sec,  // second edit: one gap
		10 * sec,  // third edit begins the fight: one gap
		20 * sec,  // then doubling
		40 * sec,  //
		80 * sec,  //
		160 * sec, //
		300 * sec, // at the cap
		300 * sec, //
	}, gaps)

	require.Len(t, s.Fights, 1, "one fight, reported once")
	f := s.Fights[0]
	assert.Equal(t, putBacks[2], f.At, "the fight begins at the third edit, counted when its put-back is decided")
	// The last edit was made at the last answered put-back and counted at
	// the first writer tick after the config read that saw it.
	lastSeen := putBacks[stopAfter-2].Add(lim.WriteGap)
	assert.Equal(t, lastSeen.Add(lim.Quiet), f.Ended, "the fight ends ten quiet minutes after the last edit")

	// After the fight an edit is put back after one gap, as the first was.
	again := s.Now()
	s.ForeignEdit("team-a", "chat", forged())
	s.Run(time.Minute)
	require.Len(t, putBacks, stopAfter+1)
	assert.LessOrEqual(t, putBacks[stopAfter].Sub(again), lim.ConfigLook+lim.WriterTick)
	assert.Len(t, s.Fights, 1, "a single edit after the fight is no fight")
}
