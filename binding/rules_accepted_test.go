package binding_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	bt "github.com/condengine/condengine/binding/bindingtest"
)

func TestAccepted_EveryReason(t *testing.T) {
	invalidBackend := bt.NewBackend("team-a", "broken")
	invalidBackend.Spec.URL = "http://user:pw@host.example/x"
	invalidShared := bt.NewBackend("shared", "broken-hub", "*")
	invalidShared.Spec.URL = "https://canary.example/?q=1"
	invalidConn := bt.NewConnection("team-a", "broken-slack")
	invalidConn.Spec.Platform = "teams"
	cases := []struct {
		rule    string
		b       akv1.Binding
		extra   func(*binding.Snapshot)
		reason  string
		message string
	}{
		{"OK", bt.NewBinding("team-a", "chat"), nil, string(binding.ReasonOK), ""},
		{"InvalidSpec", bt.NewBinding("team-a", "chat", bt.Channel("x y")), nil, string(binding.ReasonInvalidSpec),
			`spec.chat.channel: "x y" contains white space`},
		{"BackendNotFound", bt.NewBinding("team-a", "chat", bt.Backend("", "ghost")), nil, string(binding.ReasonBackendNotFound),
			"spec.agent.backendRef: AgentBackend team-a/ghost not found"},
		{"BackendRejected", bt.NewBinding("team-a", "chat", bt.Backend("", "broken")),
			func(s *binding.Snapshot) { s.Backends = append(s.Backends, invalidBackend) }, string(binding.ReasonBackendRejected),
			"AgentBackend team-a/broken is invalid: spec.url: must not carry user info"},
		{"BackendRejected other namespace", bt.NewBinding("team-a", "chat", bt.Backend("shared", "broken-hub")),
			func(s *binding.Snapshot) { s.Backends = append(s.Backends, invalidShared) }, string(binding.ReasonBackendRejected),
			"AgentBackend shared/broken-hub is invalid"},
		{"ConnectionNotFound", bt.NewBinding("team-a", "chat", bt.Connection("", "nope")), nil, string(binding.ReasonConnectionNotFound),
			"spec.chat.connectionRef: ChatConnection team-a/nope not found"},
		{"ConnectionRejected", bt.NewBinding("team-a", "chat", bt.Connection("", "broken-slack")),
			func(s *binding.Snapshot) { s.Connections = append(s.Connections, invalidConn) }, string(binding.ReasonConnectionRejected),
			`ChatConnection team-a/broken-slack is invalid: spec.platform: "teams" is not one of slack`},
		{"NamespaceNotAllowed", bt.NewBinding("team-a", "chat", bt.Backend("shared", "private")), nil, string(binding.ReasonNamespaceNotAllowed),
			"AgentBackend shared/private does not allow namespace team-a"},
		{"ChannelConflict", bt.NewBinding("team-a", "chat", bt.Created(bt.Epoch().Add(time.Minute))),
			func(s *binding.Snapshot) { s.Bindings = append(s.Bindings, bt.NewBinding("team-a", "first")) }, string(binding.ReasonChannelConflict),
			"spec.chat.channel: channel C1 is already bound by Binding team-a/first"},
	}
	for _, tc := range cases {
		t.Run(tc.rule, func(t *testing.T) {
			s := world(tc.b)
			if tc.extra != nil {
				tc.extra(&s)
			}
			_, m := evaluate(t, s)
			acc := cond(t, get(t, m, "team-a/chat"), binding.TypeAccepted)
			assert.Equal(t, tc.reason, acc.Reason)
			assert.Equal(t, tc.message, acc.Message)
			assert.EqualValues(t, 1, acc.ObservedGeneration)
		})
	}
}

func TestAccepted_ReasonsInSeedOrderWithCombinedMessage(t *testing.T) {
	// The Binding has every reason but ChannelConflict's rival at once;
	// whatever order the inputs come in, the first reason names it and
	// every problem is listed in the seed's order.
	b := bt.NewBinding("team-a", "chat", bt.Channel("a b"), bt.Backend("", "ghost"), bt.Connection("shared", "private-slack"))
	_, m := evaluate(t, world(b))
	acc := cond(t, get(t, m, "team-a/chat"), binding.TypeAccepted)
	assert.Equal(t, string(binding.ReasonInvalidSpec), acc.Reason)
	assert.Equal(t, `spec.chat.channel: "a b" contains white space; spec.agent.backendRef: AgentBackend team-a/ghost not found; `+
		"ChatConnection shared/private-slack does not allow namespace team-a", acc.Message)
}

func TestAccepted_OtherNamespaceObjectProblemsNotQuoted(t *testing.T) {
	bad := bt.NewBackend("shared", "hub", "*")
	bad.Spec.URL = ""
	bad.Spec.AuthSecretRef = &akv1.SecretKeyRef{Name: "CanaryName"}
	s := world(bt.NewBinding("team-a", "chat", bt.Backend("shared", "hub")))
	s.Backends[1] = bad
	_, m := evaluate(t, s)
	br := get(t, m, "team-a/chat")
	acc := cond(t, br, binding.TypeAccepted)
	assert.Equal(t, "AgentBackend shared/hub is invalid", acc.Message)
	require.Len(t, br.Causes, 1, "the problems go to the log")
	assert.Contains(t, br.Causes[0].Detail, "CanaryName")
}

func TestAccepted_NamespaceNotAllowed_SameForValidAndInvalid(t *testing.T) {
	valid := world(bt.NewBinding("team-a", "chat", bt.Backend("shared", "private")))
	invalid := world(bt.NewBinding("team-a", "chat", bt.Backend("shared", "private")))
	invalid.Backends[2].Spec.URL = "not a url"
	invalid.Backends[2].Spec.AllowedNamespaces = []string{"Team B"}
	_, mv := evaluate(t, valid)
	_, mi := evaluate(t, invalid)
	a, b := cond(t, get(t, mv, "team-a/chat"), binding.TypeAccepted), cond(t, get(t, mi, "team-a/chat"), binding.TypeAccepted)
	assert.Equal(t, a, b)
	assert.Equal(t, string(binding.ReasonNamespaceNotAllowed), a.Reason)
	assert.Empty(t, get(t, mi, "team-a/chat").Causes, "nothing of the object is looked at, not even for the log")
}

func TestAccepted_ChannelConflict_SameNamespaceWinnerNamed(t *testing.T) {
	s := world(bt.NewBinding("team-a", "late", bt.Created(bt.Epoch().Add(time.Hour))), bt.NewBinding("team-a", "first"))
	_, m := evaluate(t, s)
	assert.Equal(t, string(binding.ReasonOK), cond(t, get(t, m, "team-a/first"), binding.TypeAccepted).Reason)
	assert.Equal(t, "spec.chat.channel: channel C1 is already bound by Binding team-a/first",
		cond(t, get(t, m, "team-a/late"), binding.TypeAccepted).Message)
}

func TestAccepted_ChannelConflict_OtherNamespaceWinnerNotNamed(t *testing.T) {
	onHub := func(ns, name string, created time.Time) akv1.Binding {
		return bt.NewBinding(ns, name, bt.Backend("shared", "hub"), bt.Connection("shared", "hub-slack"), bt.Created(created))
	}
	s := world(onHub("team-b", "secret-holder", bt.Epoch()), onHub("team-a", "late", bt.Epoch().Add(time.Hour)))
	_, m := evaluate(t, s)
	br := get(t, m, "team-a/late")
	acc := cond(t, br, binding.TypeAccepted)
	assert.Equal(t, "spec.chat.channel: channel C1 is already bound by a Binding in another namespace", acc.Message)
	assert.NotContains(t, cond(t, br, binding.TypeReady).Message, "secret-holder")
	require.Len(t, br.Causes, 1)
	assert.Contains(t, br.Causes[0].Detail, "team-b/secret-holder", "the log names the holder")
}

func TestAccepted_ChannelConflict_OldestCreationThenNamespaceThenNameAsFields(t *testing.T) {
	onHub := func(ns, name string, created time.Time) akv1.Binding {
		return bt.NewBinding(ns, name, bt.Backend("shared", "hub"), bt.Connection("shared", "hub-slack"), bt.Created(created))
	}
	cases := []struct {
		rule   string
		a, b   akv1.Binding
		winner string
	}{
		{"older creationTimestamp wins over namespace and name", onHub("zz", "zz", bt.Epoch()), onHub("aa", "aa", bt.Epoch().Add(time.Second)), "zz/zz"},
		{"namespace compared as a field, not namespace/name", onHub("team-a", "x", bt.Epoch()), onHub("team-a-b", "a", bt.Epoch()), "team-a/x"},
		{"then name", onHub("team-a", "beta", bt.Epoch()), onHub("team-a", "alpha", bt.Epoch()), "team-a/alpha"},
	}
	for _, tc := range cases {
		t.Run(tc.rule, func(t *testing.T) {
			for _, order := range [][]akv1.Binding{{tc.a, tc.b}, {tc.b, tc.a}} {
				_, m := evaluate(t, world(order...))
				for id, br := range m {
					want := string(binding.ReasonChannelConflict)
					if id == tc.winner {
						want = string(binding.ReasonOK)
					}
					assert.Equal(t, want, cond(t, br, binding.TypeAccepted).Reason, id)
				}
			}
		})
	}
}

func TestAccepted_ChannelConflict_ManyCompetitorsOneHolder(t *testing.T) {
	var bs []akv1.Binding
	for i := range 50 {
		bs = append(bs, bt.NewBinding("team-a", "b"+strings.Repeat("x", i), bt.Created(bt.Epoch().Add(time.Duration(50-i)*time.Second))))
	}
	_, m := evaluate(t, world(bs...))
	holders := 0
	for _, br := range m {
		if cond(t, br, binding.TypeAccepted).Reason == string(binding.ReasonOK) {
			holders++
			assert.Equal(t, "team-a/b"+strings.Repeat("x", 49), br.Namespace+"/"+br.Name)
		}
	}
	assert.Equal(t, 1, holders)
}

func TestAccepted_ConnectionNotFound_WrittenByAnyLeader(t *testing.T) {
	s := world(bt.NewBinding("team-a", "chat", bt.Connection("", "nope")))
	s.Broker.Name = "some-other-broker"
	_, m := evaluate(t, s)
	br := get(t, m, "team-a/chat")
	assert.True(t, br.Write)
	assert.Equal(t, string(binding.ReasonConnectionNotFound), cond(t, br, binding.TypeAccepted).Reason)
}

func TestAccepted_InvalidConnectionRefHasNoOwner(t *testing.T) {
	s := world(bt.NewBinding("team-a", "chat", bt.Connection("", "Not_Valid")))
	s.Broker.Name = "some-other-broker"
	_, m := evaluate(t, s)
	assert.True(t, get(t, m, "team-a/chat").Write)
}
