package policy_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/bindingtest"
	"github.com/condengine/condengine/binding/policy"
	"github.com/condengine/condengine/conditions"
)

// outcomeOf evaluates one healthy Binding whose status reads status, with
// the broker set up by edit, and returns its outcome and its object.
func outcomeOf(t *testing.T, status []metav1.Condition, edit func(*binding.Snapshot)) (binding.Outcome, []metav1.Condition) {
	t.Helper()
	s := bindingtest.Healthy(policy.T0, "team-a", 1)
	s.Bindings[0].Status.Conditions = status
	if edit != nil {
		edit(&s)
	}
	r, err := binding.Evaluate(s)
	require.NoError(t, err)
	require.Len(t, r.Bindings, 1)
	return r.Bindings[0], s.Bindings[0].Status.Conditions
}

func TestDecideOutcome(t *testing.T) {
	l := policy.DefaultLimits()
	audited := metav1.Condition{Type: "example.com/Audited", Status: metav1.ConditionTrue, Reason: "ByOtherTool",
		ObservedGeneration: 1, LastTransitionTime: metav1.NewTime(policy.T0.Add(-time.Hour))}
	recent := policy.Memory{Written: policy.Status(1, "Unreachable"), LastEnd: policy.T0.Add(-2 * time.Second)}
	for _, tc := range []struct {
		name    string
		status  []metav1.Condition
		edit    func(*binding.Snapshot)
		mem     policy.Memory
		write   bool
		skip    conditions.Skip
		action  policy.Action
		retryAt time.Time
	}{
		{name: "never written: writes at once", status: policy.Status(1, "Unreachable"),
			write: true, action: policy.Write},
		{name: "within the gap: held until the gap ends", status: policy.Status(1, "Unreachable"), mem: recent,
			skip: conditions.SkipHeld, action: policy.Wait, retryAt: policy.T0.Add(8 * time.Second)},
		{name: "unchanged: nothing", status: policy.Status(1, "OK"),
			skip: conditions.SkipUnchanged, action: policy.None},
		{name: "another controller's condition first is no change", status: append([]metav1.Condition{audited}, policy.Status(1, "OK")...),
			skip: conditions.SkipUnchanged, action: policy.None},
		{name: "ConfigMap route: never written, whatever the timing", status: policy.Status(1, "Unreachable"),
			edit: func(s *binding.Snapshot) { s.Broker.ConfigSource = binding.ConfigSourceConfigMap },
			skip: conditions.SkipConfigMapRoute, action: policy.None},
		{name: "standby", status: policy.Status(1, "Unreachable"),
			edit: func(s *binding.Snapshot) { s.Broker.Leader = false },
			skip: conditions.SkipNotLeader, action: policy.None},
		{name: "stale snapshot: never written", status: policy.Status(2, "OK"),
			skip: conditions.SkipStale, action: policy.None},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, object := outcomeOf(t, tc.status, tc.edit)
			engine := o
			d, _, err := l.DecideOutcome(&o, object, tc.mem, policy.T0)
			require.NoError(t, err)
			assert.Equal(t, tc.write, d.Write)
			assert.Equal(t, tc.skip, d.Skip)
			assert.Equal(t, tc.action, d.Action, d.Log)
			assert.Equal(t, !tc.retryAt.IsZero(), d.Retry)
			assert.True(t, tc.retryAt.Equal(d.RetryAt), "retryAt %v, want %v", d.RetryAt, tc.retryAt)
			assert.Equal(t, d.Write, d.Action == policy.Write, "the decision and the verdict agree")
			assert.Equal(t, engine, o, "the engine's outcome is kept as it decided")
		})
	}
}

func TestDecideOutcome_ZeroNowIsAnError(t *testing.T) {
	o, object := outcomeOf(t, policy.Status(1, "Unreachable"), nil)
	before := o
	_, _, err := policy.DefaultLimits().DecideOutcome(&o, object, policy.Memory{}, time.Time{})
	assert.ErrorIs(t, err, conditions.ErrZeroNow)
	assert.Equal(t, before, o, "the outcome is left as it was")
}

func TestDecideOutcome_ZeroLimitsAreRefusedNamingTheField(t *testing.T) {
	o, object := outcomeOf(t, policy.Status(1, "Unreachable"), nil)
	before := o
	_, _, err := policy.Limits{}.DecideOutcome(&o, object, policy.Memory{}, policy.T0)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "WriteGap")
	assert.Contains(t, err.Error(), "BackoffCap")
	assert.Equal(t, before, o, "the outcome is left as it was")

	l := policy.DefaultLimits()
	l.WriteGap = 0
	_, _, err = l.DecideOutcome(&o, object, policy.Memory{}, policy.T0)
	require.ErrorContains(t, err, "WriteGap")
}

func TestDecideOutcome_ZeroNowSaysToSetSnapshotNow(t *testing.T) {
	o, object := outcomeOf(t, policy.Status(1, "Unreachable"), nil)
	_, _, err := policy.DefaultLimits().DecideOutcome(&o, object, policy.Memory{}, time.Time{})
	assert.ErrorContains(t, err, "set Snapshot.Now")
}

func TestDecideOutcome_ForeignEditIsObserved(t *testing.T) {
	l := policy.DefaultLimits()
	// The writer last wrote OK; someone else wrote Unreachable; the
	// engine computes OK again.
	mem := policy.Memory{Written: policy.Status(1, "OK"), LastEnd: policy.T0.Add(-time.Minute)}
	o, object := outcomeOf(t, policy.Status(1, "Unreachable"), func(s *binding.Snapshot) {
		s.Probes = s.Probes[:0]
		s.Bindings[0].Status.Conditions = policy.Status(1, "Unreachable")
	})
	o.Owned, o.Conditions = policy.Status(1, "OK"), policy.Status(1, "OK")
	d, m, err := l.DecideOutcome(&o, object, mem, policy.T0)
	require.NoError(t, err)
	assert.True(t, d.ForeignEdit)
	assert.Equal(t, object, m.Foreign, "the edit is counted in the memory returned")
	assert.True(t, d.Write)
}
