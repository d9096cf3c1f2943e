package binding_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	bt "github.com/condengine/condengine/binding/bindingtest"
	"github.com/condengine/condengine/conditions"
)

// Every field of the shared outcome, on each path a Binding can take.
func TestOutcome_EveryFieldFilled(t *testing.T) {
	audited := metav1.Condition{Type: "example.com/Audited", Status: metav1.ConditionTrue, Reason: "ByOtherTool",
		ObservedGeneration: 1, LastTransitionTime: metav1.NewTime(now.Add(-time.Hour))}
	for _, tc := range []struct {
		name   string
		status []metav1.Condition
		edit   func(*binding.Snapshot)
		write  bool
		skip   conditions.Skip
	}{
		{name: "due, leader on the crds route", write: true},
		{name: "unchanged", status: ok4(1), skip: conditions.SkipUnchanged},
		{name: "stale", status: ok4(2), skip: conditions.SkipStale},
		{name: "standby", edit: func(s *binding.Snapshot) { s.Broker.Leader = false }, skip: conditions.SkipNotLeader},
		{name: "ConfigMap route", edit: func(s *binding.Snapshot) { s.Broker.ConfigSource = binding.ConfigSourceConfigMap },
			skip: conditions.SkipConfigMapRoute},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := bt.NewBinding("team-a", "chat", bt.Conditions(append(append([]metav1.Condition(nil), tc.status...), audited)...))
			s := world(b)
			s.Probes = []binding.ProbeResult{bt.Probe(b, 1, bt.CardOK(), bt.Joined())}
			if tc.edit != nil {
				tc.edit(&s)
			}
			_, m := evaluate(t, s)
			o := get(t, m, "team-a/chat")
			assert.Equal(t, akv1.KindBinding, o.Kind)
			assert.Equal(t, "team-a", o.Namespace)
			assert.Equal(t, "chat", o.Name)
			assert.Equal(t, b.UID, o.UID)
			assert.Equal(t, b.Generation, o.Generation)
			assert.Equal(t, tc.write, o.Write)
			assert.Equal(t, tc.skip, o.Skip)
			assert.Equal(t, conditions.FinalizerKeep, o.Finalizer, "a Binding has no finalizer")
			assert.False(t, o.Retry)
			assert.True(t, o.RetryAt.IsZero())
			assert.Contains(t, o.Conditions, audited, "the other writer's condition stays in Conditions")
			assert.NotContains(t, o.Owned, audited, "and never in Owned")
			require.NotEmpty(t, o.Owned)
			for _, c := range o.Owned {
				assert.True(t, binding.Vocabulary.Has(c.Type), c.Type)
			}
			assert.Equal(t, o.Conditions, o.Status.Conditions)
			assert.True(t, o.Served)
		})
	}
}

// Shuffled lists give the same outcomes, sorted, whatever the snapshot.
func TestProperty_OutcomesSortedAndOrderFree(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := bt.SnapshotGen().Draw(t, "snapshot")
		p := s
		p.Bindings = rapid.Permutation(s.Bindings).Draw(t, "bindings")
		p.Backends = rapid.Permutation(s.Backends).Draw(t, "backends")
		p.Connections = rapid.Permutation(s.Connections).Draw(t, "connections")
		p.Probes = rapid.Permutation(s.Probes).Draw(t, "probes")
		a, b := mustEvaluate(s), mustEvaluate(p)
		if x, y := resultJSON(t, a), resultJSON(t, b); x != y {
			t.Fatalf("shuffled input, another result:\n%s\n%s", x, y)
		}
		bt.CheckInvariants(t, s, a)
	})
}
