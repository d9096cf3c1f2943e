package binding_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	bt "github.com/condengine/condengine/binding/bindingtest"
)

func memoryOf(r binding.Result, uid string) *binding.Served {
	for i := range r.Memory.Objects {
		if string(r.Memory.Objects[i].UID) == uid {
			return &r.Memory.Objects[i]
		}
	}
	return nil
}

func TestServed_RefusedEditSaysGenerationInvalidServingGood(t *testing.T) {
	good := bt.NewBinding("team-a", "chat")
	edited := bt.NewBinding("team-a", "chat", bt.Generation(2), bt.Channel("bad channel"))
	s := world(edited)
	s.Served.Objects = []binding.Served{served(string(good.UID), 1, "team-a", "chat", good.Spec)}
	s.Probes = []binding.ProbeResult{bt.Probe(good, 1, bt.CardOK(), bt.Joined())}
	r, m := evaluate(t, s)
	br := get(t, m, "team-a/chat")
	acc := cond(t, br, binding.TypeAccepted)
	assert.Equal(t, `generation 2 is invalid, serving generation 1: spec.chat.channel: "bad channel" contains white space`, acc.Message)
	assert.EqualValues(t, 2, acc.ObservedGeneration)
	assert.True(t, br.Served)
	assert.EqualValues(t, 1, br.ServedGeneration)
	assert.EqualValues(t, 1, cond(t, br, binding.TypeBackendReachable).ObservedGeneration)
	ready := cond(t, br, binding.TypeReady)
	assert.Equal(t, "Accepted:InvalidSpec", ready.Reason)
	assert.EqualValues(t, 2, ready.ObservedGeneration)
	mem := memoryOf(r, string(good.UID))
	require.NotNil(t, mem)
	assert.EqualValues(t, 1, mem.Generation, "the memory keeps the good generation")
	assert.Equal(t, "C1", mem.Binding.Chat.Channel)
}

func TestServed_RefusedEditOfAnyReasonKeepsGoodGeneration(t *testing.T) {
	good := bt.NewBinding("team-a", "chat")
	holder := bt.NewBinding("team-a", "holder", bt.Channel("C9"), bt.Created(bt.Epoch().Add(-time.Hour)))
	cases := map[string]akv1.Binding{
		string(binding.ReasonInvalidSpec):         bt.NewBinding("team-a", "chat", bt.Generation(2), bt.Channel("")),
		string(binding.ReasonBackendNotFound):     bt.NewBinding("team-a", "chat", bt.Generation(2), bt.Backend("", "ghost")),
		string(binding.ReasonConnectionRejected):  bt.NewBinding("team-a", "chat", bt.Generation(2), bt.Connection("", "broken")),
		string(binding.ReasonNamespaceNotAllowed): bt.NewBinding("team-a", "chat", bt.Generation(2), bt.Backend("shared", "private")),
		string(binding.ReasonChannelConflict):     bt.NewBinding("team-a", "chat", bt.Generation(2), bt.Channel("C9")),
	}
	broken := bt.NewConnection("team-a", "broken")
	broken.Spec.TokenSecretRef = nil
	for reason, edited := range cases {
		t.Run(reason, func(t *testing.T) {
			s := world(edited, holder)
			s.Connections = append(s.Connections, broken)
			s.Served.Objects = []binding.Served{served(string(good.UID), 1, "team-a", "chat", good.Spec)}
			_, m := evaluate(t, s)
			br := get(t, m, "team-a/chat")
			assert.Equal(t, reason, cond(t, br, binding.TypeAccepted).Reason)
			assert.Contains(t, cond(t, br, binding.TypeAccepted).Message, "generation 2 is invalid, serving generation 1: ")
			assert.True(t, br.Served)
			assert.EqualValues(t, 1, br.ServedGeneration)
			assert.Len(t, br.Conditions, 4)
		})
	}
}

// The seed says no broker owns a Binding whose connectionRef names no
// ChatConnection; so none serves it, even one that served a good
// generation, and every broker's leader writes the same two conditions.
func TestServed_ConnectionNotFoundMeansNoOwnerAndNothingServed(t *testing.T) {
	good := bt.NewBinding("team-a", "chat")
	for _, broker := range []string{"", "broker-b"} {
		s := world(bt.NewBinding("team-a", "chat", bt.Generation(2), bt.Connection("", "ghost")))
		s.Broker.Name = broker
		s.Served.Objects = []binding.Served{served(string(good.UID), 1, "team-a", "chat", good.Spec)}
		r, m := evaluate(t, s)
		br := get(t, m, "team-a/chat")
		assert.True(t, br.Write, broker)
		assert.False(t, br.Served, broker)
		assert.Equal(t, "spec.chat.connectionRef: ChatConnection team-a/ghost not found", cond(t, br, binding.TypeAccepted).Message)
		assert.Nil(t, memoryOf(r, string(good.UID)))
	}
}

func TestServed_RejectedBackendRunsItsGoodGeneration(t *testing.T) {
	s := world(bt.NewBinding("team-a", "chat"))
	good := s.Backends[0]
	s.Backends[0].Generation = 4
	s.Backends[0].Spec.URL = ""
	s.Served.Objects = []binding.Served{{Kind: akv1.KindAgentBackend, Namespace: "team-a", Name: "echo", UID: good.UID, Generation: 3, Backend: &good.Spec}}
	r, m := evaluate(t, s)
	br := get(t, m, "team-a/chat")
	assert.Equal(t, "AgentBackend team-a/echo generation 4 is invalid, serving generation 3: spec.url: required",
		cond(t, br, binding.TypeAccepted).Message)
	assert.True(t, br.Served, "the Binding runs on the backend's good generation")
	assert.EqualValues(t, 1, br.ServedGeneration)
	mem := memoryOf(r, string(good.UID))
	require.NotNil(t, mem)
	assert.EqualValues(t, 3, mem.Generation)
}

func TestServed_RejectedConnectionRunsItsGoodAllowedNamespaces(t *testing.T) {
	s := world(bt.NewBinding("team-a", "chat", bt.Connection("shared", "private-slack")))
	c := &s.Connections[2]
	goodSpec := c.Spec
	goodSpec.AllowedNamespaces = []string{"team-a"}
	c.Generation = 2
	c.Spec.Platform = ""
	s.Served.Objects = []binding.Served{{Kind: akv1.KindChatConnection, Namespace: "shared", Name: "private-slack", UID: c.UID, Generation: 1, Connection: &goodSpec}}
	_, m := evaluate(t, s)
	br := get(t, m, "team-a/chat")
	assert.Equal(t, "ChatConnection shared/private-slack generation 2 is invalid, serving generation 1", cond(t, br, binding.TypeAccepted).Message)
	assert.True(t, br.Served)
}

func TestServed_RefusedWithoutGoodGenerationNotServed(t *testing.T) {
	_, m := evaluate(t, world(bt.NewBinding("team-a", "chat", bt.Backend("", "ghost"))))
	br := get(t, m, "team-a/chat")
	assert.False(t, br.Served)
	assert.Equal(t, []string{binding.TypeAccepted, binding.TypeReady}, typesOf(br))
}

func TestServed_TwoClaims(t *testing.T) {
	good := bt.NewBinding("team-a", "chat")
	mem := []binding.Served{served(string(good.UID), 1, "team-a", "chat", good.Spec)}
	t.Run("new channel won: accepted, old claim let go next time", func(t *testing.T) {
		younger := bt.NewBinding("team-a", "younger", bt.Created(bt.Epoch().Add(time.Hour)))
		s := world(bt.NewBinding("team-a", "chat", bt.Generation(2), bt.Channel("C2")), younger)
		s.Served.Objects = mem
		r, m := evaluate(t, s)
		assert.Equal(t, string(binding.ReasonOK), cond(t, get(t, m, "team-a/chat"), binding.TypeAccepted).Reason)
		assert.Equal(t, string(binding.ReasonChannelConflict), cond(t, get(t, m, "team-a/younger"), binding.TypeAccepted).Reason,
			"the old claim still holds C1 in this evaluation")
		assert.EqualValues(t, 2, memoryOf(r, string(good.UID)).Generation)
		s.Served = r.Memory
		_, m = evaluate(t, s)
		assert.Equal(t, string(binding.ReasonOK), cond(t, get(t, m, "team-a/younger"), binding.TypeAccepted).Reason,
			"from the next evaluation on, C1 is free")
	})
	t.Run("new channel lost: keeps serving the old one", func(t *testing.T) {
		holder := bt.NewBinding("team-a", "holder", bt.Channel("C2"), bt.Created(bt.Epoch().Add(-time.Hour)))
		s := world(bt.NewBinding("team-a", "chat", bt.Generation(2), bt.Channel("C2")), holder)
		s.Served.Objects = mem
		_, m := evaluate(t, s)
		br := get(t, m, "team-a/chat")
		assert.True(t, br.Served)
		assert.EqualValues(t, 1, br.ServedGeneration)
		assert.Equal(t, "generation 2 is invalid, serving generation 1: spec.chat.channel: channel C2 is already bound by Binding team-a/holder",
			cond(t, br, binding.TypeAccepted).Message)
	})
	t.Run("both lost: served nowhere", func(t *testing.T) {
		h1 := bt.NewBinding("team-a", "h1", bt.Channel("C1"), bt.Created(bt.Epoch().Add(-time.Hour)))
		h2 := bt.NewBinding("team-a", "h2", bt.Channel("C2"), bt.Created(bt.Epoch().Add(-time.Hour)))
		s := world(bt.NewBinding("team-a", "chat", bt.Generation(2), bt.Channel("C2")), h1, h2)
		s.Served.Objects = mem
		r, m := evaluate(t, s)
		br := get(t, m, "team-a/chat")
		assert.False(t, br.Served)
		assert.Equal(t, []string{binding.TypeAccepted, binding.TypeReady}, typesOf(br))
		assert.Nil(t, memoryOf(r, string(good.UID)))
	})
}

func TestServed_MadeAgainGetsNothingOfTheOldOne(t *testing.T) {
	old := bt.NewBinding("team-a", "chat", bt.UID("u-old"))
	again := bt.NewBinding("team-a", "chat", bt.UID("u-new"), bt.Generation(1), bt.Created(now.Add(-time.Minute)),
		bt.Channel("bad channel"), bt.Conditions(ok4(1)...))
	s := world(again)
	s.Served.Objects = []binding.Served{served("u-old", 1, "team-a", "chat", old.Spec)}
	s.Probes = []binding.ProbeResult{bt.Probe(old, 1, bt.CardOK(), bt.Joined())}
	r, m := evaluate(t, s)
	br := get(t, m, "team-a/chat")
	assert.False(t, br.Served, "the old object's good generation is not this object's")
	assert.Equal(t, []string{binding.TypeAccepted, binding.TypeReady}, typesOf(br))
	require.Len(t, r.IgnoredProbes, 1)
	assert.Equal(t, "u-old", string(r.IgnoredProbes[0].UID))
}

func TestServed_MadeAgainOldConditionsArePending(t *testing.T) {
	// Conditions whose transitions predate the object were made for an
	// earlier object of the same name: Pending replaces them.
	again := bt.NewBinding("team-a", "chat", bt.UID("u-new"), bt.Created(now.Add(-time.Minute)), bt.Conditions(ok4(1)...))
	_, m := evaluate(t, world(again))
	br := get(t, m, "team-a/chat")
	assert.Equal(t, string(binding.ReasonPending), cond(t, br, binding.TypeBackendReachable).Reason)
	assert.Equal(t, "BackendReachable:Pending", cond(t, br, binding.TypeReady).Reason)
	assert.True(t, br.Write)
}
