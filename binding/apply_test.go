package binding_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	bt "github.com/condengine/condengine/binding/bindingtest"
	"github.com/condengine/condengine/conditions"
)

func TestApply_WrittenStatusesLand(t *testing.T) {
	s := world(bt.NewBinding("team-a", "chat"), bt.NewBinding("team-a", "other", bt.Channel("C2")))
	r := mustEvaluate(s)
	require.Len(t, r.Bindings, 2)
	next := binding.Apply(s, r)
	require.Len(t, next.Bindings, 2)
	for i, b := range next.Bindings {
		assert.Empty(t, s.Bindings[i].Status.Conditions, "s itself is not modified")
		assert.Equal(t, statusOf(t, r, b.Namespace, b.Name), b.Status, "%s/%s", b.Namespace, b.Name)
	}
	again := mustEvaluate(next)
	for _, o := range again.Bindings {
		assert.False(t, o.Write, "%s/%s: a write is due again after Apply", o.Namespace, o.Name)
		assert.Equal(t, conditions.SkipUnchanged, o.Skip)
	}
}

func TestApply_FollowsWriteOnly(t *testing.T) {
	for _, tc := range []struct {
		name   string
		broker func(*binding.Broker)
		skip   conditions.Skip
	}{
		{"a standby", func(b *binding.Broker) { b.Leader = false }, conditions.SkipNotLeader},
		{"the ConfigMap route", func(b *binding.Broker) { b.ConfigSource = binding.ConfigSourceConfigMap }, conditions.SkipConfigMapRoute},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := world(bt.NewBinding("team-a", "chat"))
			tc.broker(&s.Broker)
			r := mustEvaluate(s)
			require.Len(t, r.Bindings, 1)
			require.Equal(t, tc.skip, r.Bindings[0].Skip)
			require.NotEmpty(t, r.Bindings[0].Conditions, "the computed status is there, only not written")
			next := binding.Apply(s, r)
			assert.Empty(t, next.Bindings[0].Status.Conditions)
		})
	}
}

// An outcome lands on the Binding of its namespace, name and UID only: a
// Binding of the same name under another UID (recreated since the
// evaluation) and another broker's Binding keep their status.
func TestApply_MatchesByNamespaceNameAndUID(t *testing.T) {
	old := ok4(1)
	s := world(bt.NewBinding("team-a", "chat", bt.Conditions(old...)))
	r := mustEvaluate(s)
	require.Len(t, r.Bindings, 1)
	r.Bindings[0].Write = true
	r.Bindings[0].Status = akv1.BindingStatus{Conditions: r.Bindings[0].Conditions[:1]}

	recreated := s
	recreated.Bindings = []akv1.Binding{bt.NewBinding("team-a", "chat", bt.UID("u-recreated"), bt.Conditions(old...))}
	assert.Equal(t, old, binding.Apply(recreated, r).Bindings[0].Status.Conditions, "another UID")

	renamed := s
	renamed.Bindings = []akv1.Binding{s.Bindings[0]}
	renamed.Bindings[0].Name = "chat-2"
	assert.Equal(t, old, binding.Apply(renamed, r).Bindings[0].Status.Conditions, "another name, same UID")

	assert.Equal(t, r.Bindings[0].Status, binding.Apply(s, r).Bindings[0].Status, "its own")
}

func TestApply_EmptyResultChangesNothing(t *testing.T) {
	s := world(bt.NewBinding("team-a", "chat", bt.Conditions(ok4(1)...)))
	next := binding.Apply(s, binding.Result{})
	assert.Equal(t, s, next)
	assert.Empty(t, binding.Apply(binding.Snapshot{}, binding.Result{}).Bindings)
}

func TestApplyInPlace_WritesWhatApplyReturns(t *testing.T) {
	s := world(bt.NewBinding("team-a", "chat"), bt.NewBinding("team-a", "other", bt.Channel("C2"), bt.Connection("shared", "hub-slack")))
	s.Connections[0].Spec.Broker = "broker-b" // chat's connection: chat is another broker's Binding
	r := mustEvaluate(s)
	want := binding.Apply(s, r).Bindings
	got := slices.Clone(s.Bindings)
	binding.ApplyInPlace(got, r)
	assert.Equal(t, want, got)
	assert.NotEqual(t, s.Bindings, got, "other was written")
	assert.Empty(t, got[0].Status.Conditions, "another broker's Binding keeps its status")
}

func statusOf(t *testing.T, r binding.Result, ns, name string) akv1.BindingStatus {
	t.Helper()
	for _, o := range r.Bindings {
		if o.Namespace == ns && o.Name == name {
			return o.Status
		}
	}
	t.Fatalf("no outcome for %s/%s", ns, name)
	return akv1.BindingStatus{}
}

// A host that ran the writes evaluates again on the snapshot Apply gives:
// nothing more is due.
func ExampleApply() {
	s := binding.Snapshot{
		Now:         bt.Epoch().Add(time.Hour),
		Broker:      binding.Broker{Leader: true, ProberListed: true, ConfigSource: binding.ConfigSourceCRDs},
		Bindings:    []akv1.Binding{bt.NewBinding("team-a", "chat")},
		Backends:    []akv1.AgentBackend{bt.NewBackend("team-a", "echo")},
		Connections: []akv1.ChatConnection{bt.NewConnection("team-a", "slack")},
	}
	r, err := binding.Evaluate(s)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("first: write", r.Bindings[0].Write)
	s = binding.Apply(s, r)
	for _, c := range s.Bindings[0].Status.Conditions {
		fmt.Printf("  %s=%s %s\n", c.Type, c.Status, c.Reason)
	}
	r, _ = binding.Evaluate(s)
	fmt.Println("then: write", r.Bindings[0].Write, "skip", r.Bindings[0].Skip)
	// Output:
	// first: write true
	//   Accepted=True OK
	//   BackendReachable=Unknown Pending
	//   ChannelJoined=Unknown Pending
	//   Ready=Unknown BackendReachable:Pending
	// then: write false skip Unchanged
}
