package binding_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/binding"
	bt "github.com/condengine/condengine/binding/bindingtest"
)

func TestReady_TrueExactlyWhenEveryOtherIsTrue(t *testing.T) {
	br := probeOnce(t, bt.CardOK(), bt.Joined())
	r := cond(t, br, binding.TypeReady)
	assert.Equal(t, metav1.ConditionTrue, r.Status)
	assert.Equal(t, string(binding.ReasonOK), r.Reason)
	assert.Empty(t, r.Message)
}

func TestReady_FirstConditionHoldingBackDecides(t *testing.T) {
	cases := []struct {
		rule   string
		be     *binding.BackendObservation
		ch     *binding.ChannelObservation
		status metav1.ConditionStatus
		reason string
	}{
		{"backend before channel", bt.HTTP(404), bt.ChannelState(false, false), "False", "BackendReachable:AgentNotFound"},
		{"unknown backend before false channel", bt.HTTP(429), bt.PlatformError("channel_not_found"), "Unknown", "BackendReachable:RateLimited"},
		{"channel when backend is fine", bt.CardOK(), bt.PlatformError("invalid_auth"), "False", "ChannelJoined:AccessDenied"},
		{"channel pending", bt.CardOK(), nil, "Unknown", "ChannelJoined:Pending"},
	}
	for _, tc := range cases {
		t.Run(tc.rule, func(t *testing.T) {
			br := probeOnce(t, tc.be, tc.ch)
			r := cond(t, br, binding.TypeReady)
			assert.Equal(t, tc.status, r.Status)
			assert.Equal(t, tc.reason, r.Reason)
			for _, c := range br.Conditions[1:3] {
				if c.Status != metav1.ConditionTrue {
					assert.Equal(t, c.Message, r.Message, "Ready takes the message of what holds it back")
					break
				}
			}
		})
	}
}

func TestReady_NotAcceptedCarriesAcceptedReasonMessageAndGeneration(t *testing.T) {
	_, m := evaluate(t, world(bt.NewBinding("team-a", "chat", bt.Generation(3), bt.Backend("", "ghost"))))
	br := get(t, m, "team-a/chat")
	acc, r := cond(t, br, binding.TypeAccepted), cond(t, br, binding.TypeReady)
	assert.Equal(t, "Accepted:BackendNotFound", r.Reason)
	assert.Equal(t, metav1.ConditionFalse, r.Status)
	assert.Equal(t, acc.Message, r.Message)
	assert.EqualValues(t, 3, r.ObservedGeneration)
}

func TestReady_GenerationIsTheOldestOfItsEvidence(t *testing.T) {
	b := bt.NewBinding("team-a", "chat", bt.Generation(3))
	s := world(b)
	s.Probes = []binding.ProbeResult{bt.Probe(b, 2, bt.CardOK(), nil), bt.Probe(b, 1, nil, bt.Joined())}
	_, m := evaluate(t, s)
	br := get(t, m, "team-a/chat")
	assert.EqualValues(t, 3, cond(t, br, binding.TypeAccepted).ObservedGeneration)
	r := cond(t, br, binding.TypeReady)
	assert.Equal(t, string(binding.ReasonOK), r.Reason)
	assert.EqualValues(t, 1, r.ObservedGeneration, "Ready says nothing newer than its evidence")
}

func TestReady_BarePendingBeforeTheProberLists(t *testing.T) {
	b := bt.NewBinding("team-a", "chat", bt.Generation(2))
	s := world(b)
	s.Broker.StartedAt = now.Add(-5 * time.Second)
	s.Broker.ProberListed = false
	_, m := evaluate(t, s)
	r := cond(t, get(t, m, "team-a/chat"), binding.TypeReady)
	assert.Equal(t, metav1.ConditionUnknown, r.Status)
	assert.Equal(t, string(binding.ReasonPending), r.Reason)
	assert.EqualValues(t, 2, r.ObservedGeneration)

	// The clock does not decide: even long after the start, what the
	// prober says does.
	s.Broker.StartedAt = now.Add(-time.Hour)
	_, m = evaluate(t, s)
	assert.Equal(t, string(binding.ReasonPending), cond(t, get(t, m, "team-a/chat"), binding.TypeReady).Reason)
}

func TestReady_TypePendingUntilTheFirstProbesEnd(t *testing.T) {
	_, m := evaluate(t, world(bt.NewBinding("team-a", "chat")))
	br := get(t, m, "team-a/chat")
	assert.Equal(t, "BackendReachable:Pending", cond(t, br, binding.TypeReady).Reason)
	assert.Equal(t, metav1.ConditionUnknown, cond(t, br, binding.TypeReady).Status)
}

func TestFailover_PendingNeverOverwritesAGoodResultOfTheServedGeneration(t *testing.T) {
	failed := ok4(1)
	failed[1].Status, failed[1].Reason, failed[1].Message = metav1.ConditionFalse, string(binding.ReasonUnreachable),
		binding.ProbeMessage(binding.TypeBackendReachable, binding.ReasonUnreachable)
	failed[3].Status, failed[3].Reason, failed[3].Message = metav1.ConditionFalse, "BackendReachable:Unreachable", failed[1].Message
	for name, status := range map[string][]metav1.Condition{"all True": ok4(1), "a False result": failed} {
		t.Run(name, func(t *testing.T) {
			_, m := evaluate(t, world(bt.NewBinding("team-a", "chat", bt.Conditions(status...))))
			br := get(t, m, "team-a/chat")
			assert.False(t, br.Write, "nothing to write: the last leader's result stands")
			assert.Equal(t, status[1].Reason, cond(t, br, binding.TypeBackendReachable).Reason)
		})
	}
}

func TestFailover_PendingReplacesAResultOfAnotherGeneration(t *testing.T) {
	_, m := evaluate(t, world(bt.NewBinding("team-a", "chat", bt.Generation(2), bt.Conditions(ok4(1)...))))
	br := get(t, m, "team-a/chat")
	assert.True(t, br.Write)
	assert.Equal(t, string(binding.ReasonPending), cond(t, br, binding.TypeBackendReachable).Reason)
}

func TestFailover_PendingReplacesAReasonOutsideTheVocabulary(t *testing.T) {
	status := ok4(1)
	status[1].Reason = "Splendid"
	_, m := evaluate(t, world(bt.NewBinding("team-a", "chat", bt.Conditions(status...))))
	assert.Equal(t, string(binding.ReasonPending), cond(t, get(t, m, "team-a/chat"), binding.TypeBackendReachable).Reason)
}

func TestFailover_StartupPendingKeepsReadyDerivedFromGoodConditions(t *testing.T) {
	s := world(bt.NewBinding("team-a", "chat", bt.Conditions(ok4(1)...)))
	s.Broker.ProberListed = false
	_, m := evaluate(t, s)
	br := get(t, m, "team-a/chat")
	assert.False(t, br.Write)
	assert.Equal(t, string(binding.ReasonOK), cond(t, br, binding.TypeReady).Reason)
}

func TestTransitionTime_MovesOnlyWithStatus(t *testing.T) {
	b := bt.NewBinding("team-a", "chat", bt.Conditions(ok4(1)...))
	s := world(b)
	s.Probes = []binding.ProbeResult{bt.Probe(b, 1, bt.CardOK(), bt.Joined())}
	_, m := evaluate(t, s)
	assert.False(t, get(t, m, "team-a/chat").Write)
	s.Probes = []binding.ProbeResult{bt.Probe(b, 1, bt.HTTP(404), bt.Joined())}
	s.Now = now.Add(90*time.Second + 300*time.Millisecond)
	_, m = evaluate(t, s)
	br := get(t, m, "team-a/chat")
	assert.True(t, br.Write)
	be := cond(t, br, binding.TypeBackendReachable)
	assert.Equal(t, s.Now.Truncate(time.Second), be.LastTransitionTime.Time.UTC(), "moved, in whole seconds")
	assert.Equal(t, ok4(1)[0].LastTransitionTime, cond(t, br, binding.TypeAccepted).LastTransitionTime, "Accepted did not move")
}

func TestFailover_KeptConditionSpeaksInOurWords(t *testing.T) {
	status := ok4(1)
	status[1].Message = "edited by someone: https://10.0.0.1:8443"
	_, m := evaluate(t, world(bt.NewBinding("team-a", "chat", bt.Conditions(status...))))
	br := get(t, m, "team-a/chat")
	be := cond(t, br, binding.TypeBackendReachable)
	assert.Equal(t, string(binding.ReasonOK), be.Reason)
	assert.Empty(t, be.Message)
	assert.True(t, br.Write, "the foreign words are put back")
}
