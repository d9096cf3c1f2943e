package conditions

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

var (
	t0  = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	now = time.Date(2026, 11, 30, 10, 0, 0, 750_000_000, time.UTC) // sub-second on purpose
)

func cond(typ string, status metav1.ConditionStatus, reason string, gen int64, at time.Time) metav1.Condition {
	return metav1.Condition{Type: typ, Status: status, Reason: reason, ObservedGeneration: gen, LastTransitionTime: metav1.NewTime(at)}
}

func want(typ string, status metav1.ConditionStatus, reason string, gen int64) metav1.Condition {
	return metav1.Condition{Type: typ, Status: status, Reason: reason, ObservedGeneration: gen}
}

func TestMerge_StaleSnapshotWritesNothing(t *testing.T) {
	v := testVocab(t)
	current := []metav1.Condition{cond("Accepted", "True", "OK", 3, t0)}
	r := v.Merge(current, []metav1.Condition{want("Accepted", "False", "Invalid", 2)}, 2, now)
	assert.True(t, r.Stale)
	assert.False(t, r.Changed)
	assert.Same(t, &current[0], &r.Conditions[0], "the current list comes back as it is")
}

func TestMerge_ForeignNewerGenerationIsNotStale(t *testing.T) {
	v := testVocab(t)
	current := []metav1.Condition{cond("Foreign", "True", "Whatever", 9, t0)}
	r := v.Merge(current, []metav1.Condition{want("Accepted", "True", "OK", 2)}, 2, now)
	assert.False(t, r.Stale, "another writer's generation says nothing about our snapshot")
	assert.True(t, r.Changed)
}

func TestMerge_TransitionTimeMovesOnlyWithStatus(t *testing.T) {
	v := testVocab(t)
	current := []metav1.Condition{cond("Accepted", "False", "Invalid", 1, t0), cond("Ready", "False", "NotReady", 1, t0)}
	desired := []metav1.Condition{
		{Type: "Accepted", Status: "False", Reason: "Invalid", Message: "new words", ObservedGeneration: 2},
		{Type: "Ready", Status: "True", Reason: "OK", ObservedGeneration: 2},
	}
	r := v.Merge(current, desired, 2, now)
	require.True(t, r.Changed)
	require.Len(t, r.Conditions, 2)
	assert.True(t, r.Conditions[0].LastTransitionTime.Time.Equal(t0), "same status, new message: time kept")
	assert.Equal(t, "new words", r.Conditions[0].Message)
	assert.True(t, r.Conditions[1].LastTransitionTime.Time.Equal(now.Truncate(time.Second)), "status moved: time is now")
}

func TestMerge_NewReasonSameStatusKeepsTime(t *testing.T) {
	v := testVocab(t)
	current := []metav1.Condition{cond("Ready", "Unknown", "Pending", 1, t0), cond("Accepted", "True", "OK", 1, t0)}
	r := v.Merge(current, []metav1.Condition{want("Accepted", "True", "OK", 1), want("Ready", "Unknown", "Pending", 1)}, 1, now)
	require.Len(t, r.Conditions, 2)
	for _, c := range r.Conditions {
		assert.True(t, c.LastTransitionTime.Time.Equal(t0), c.Type)
	}
	assert.False(t, r.Changed, "order alone is no change")
	assert.Equal(t, []string{"Accepted", "Ready"}, types(r.Conditions), "answered in the vocabulary's order")
}

func TestMerge_TimeIsTruncatedToWholeSeconds(t *testing.T) {
	v := testVocab(t)
	r := v.Merge(nil, []metav1.Condition{want("Accepted", "True", "OK", 1)}, 1, now)
	require.Len(t, r.Conditions, 1)
	assert.Equal(t, 0, r.Conditions[0].LastTransitionTime.Nanosecond())
	assert.Equal(t, time.UTC, r.Conditions[0].LastTransitionTime.Location())
}

func TestMerge_DesiredTransitionTimeIsIgnored(t *testing.T) {
	v := testVocab(t)
	d := cond("Accepted", "True", "OK", 1, t0.Add(-time.Hour))
	r := v.Merge(nil, []metav1.Condition{d}, 1, now)
	assert.True(t, r.Conditions[0].LastTransitionTime.Time.Equal(now.Truncate(time.Second)))
}

func TestMerge_ZeroCurrentTimeIsReplaced(t *testing.T) {
	v := testVocab(t)
	current := []metav1.Condition{want("Accepted", "True", "OK", 1)}
	r := v.Merge(current, []metav1.Condition{want("Accepted", "True", "OK", 1)}, 1, now)
	assert.True(t, r.Changed)
	assert.False(t, r.Conditions[0].LastTransitionTime.IsZero())
}

func TestMerge_OwnTypesMissingFromDesiredAreDropped(t *testing.T) {
	v := testVocab(t)
	current := []metav1.Condition{cond("Accepted", "True", "OK", 1, t0), cond("Synced", "True", "OK", 1, t0), cond("Ready", "True", "OK", 1, t0)}
	r := v.Merge(current, []metav1.Condition{want("Accepted", "True", "OK", 1), want("Ready", "True", "OK", 1)}, 1, now)
	assert.True(t, r.Changed)
	assert.Equal(t, []string{"Accepted", "Ready"}, types(r.Conditions))
}

func TestMerge_ForeignTypesKeptUntouchedAfterOurs(t *testing.T) {
	v := testVocab(t)
	foreignA := cond("Zeta", "True", "Mine", 7, t0)
	foreignA.Message = "keep me\nexactly"
	foreignB := cond("Alpha", "False", "Theirs", 0, t0)
	current := []metav1.Condition{foreignA, cond("Ready", "True", "OK", 1, t0), foreignB}
	r := v.Merge(current, []metav1.Condition{want("Ready", "True", "OK", 1), want("Accepted", "True", "OK", 1)}, 1, now)
	assert.Equal(t, []string{"Accepted", "Ready", "Zeta", "Alpha"}, types(r.Conditions))
	assert.Equal(t, foreignA, r.Conditions[2])
	assert.Equal(t, foreignB, r.Conditions[3])
}

func TestMerge_OrderIsTheVocabularys(t *testing.T) {
	v := testVocab(t)
	desired := []metav1.Condition{want("Ready", "True", "OK", 1), want("Synced", "True", "OK", 1), want("Accepted", "True", "OK", 1)}
	r := v.Merge(nil, desired, 1, now)
	assert.Equal(t, []string{"Accepted", "Synced", "Ready"}, types(r.Conditions))
}

func TestMerge_ObservedGenerationOnlyChangeCounts(t *testing.T) {
	v := testVocab(t)
	current := []metav1.Condition{cond("Accepted", "True", "OK", 1, t0), cond("Ready", "True", "OK", 1, t0)}
	r := v.Merge(current, []metav1.Condition{want("Accepted", "True", "OK", 2), want("Ready", "True", "OK", 1)}, 2, now)
	assert.True(t, r.Changed)
	assert.Equal(t, int64(2), r.Conditions[0].ObservedGeneration)
	assert.True(t, r.Conditions[0].LastTransitionTime.Time.Equal(t0))
}

func TestMerge_UnchangedReturnsCurrentWithoutAllocating(t *testing.T) {
	v := testVocab(t)
	current := []metav1.Condition{cond("Accepted", "True", "OK", 1, t0), cond("Ready", "True", "OK", 1, t0), cond("Foreign", "True", "X", 1, t0)}
	desired := []metav1.Condition{want("Ready", "True", "OK", 1), want("Accepted", "True", "OK", 1)}
	r := v.Merge(current, desired, 1, now)
	require.False(t, r.Changed)
	assert.Same(t, &current[0], &r.Conditions[0])
	allocs := testing.AllocsPerRun(100, func() { v.Merge(current, desired, 1, now) })
	assert.Zero(t, allocs)
}

func TestMerge_UnknownAndRepeatedDesiredTypesAreReported(t *testing.T) {
	v := testVocab(t)
	desired := []metav1.Condition{want("Accepted", "True", "OK", 1), want("Bogus", "True", "OK", 1), want("Accepted", "False", "Invalid", 1)}
	r := v.Merge(nil, desired, 1, now)
	assert.Equal(t, []string{"Bogus", "Accepted"}, r.Ignored)
	require.Len(t, r.Conditions, 1)
	assert.Equal(t, metav1.ConditionTrue, r.Conditions[0].Status, "the first of a repeated type wins")
}

func TestMerge_DuplicateCurrentTypeIsCollapsed(t *testing.T) {
	v := testVocab(t)
	current := []metav1.Condition{cond("Accepted", "True", "OK", 1, t0), cond("Accepted", "False", "Invalid", 1, now)}
	r := v.Merge(current, []metav1.Condition{want("Accepted", "True", "OK", 1)}, 1, now)
	assert.True(t, r.Changed)
	require.Len(t, r.Conditions, 1)
	assert.True(t, r.Conditions[0].LastTransitionTime.Time.Equal(t0), "time comes from the first of the repeated type")
}

func TestMerge_EmptyInputs(t *testing.T) {
	v := testVocab(t)
	r := v.Merge(nil, nil, 0, now)
	assert.False(t, r.Changed)
	assert.Empty(t, r.Conditions)
	r = v.Merge([]metav1.Condition{cond("Accepted", "True", "OK", 0, t0)}, nil, 0, now)
	assert.True(t, r.Changed, "removing our last condition is a change")
	assert.Empty(t, r.Conditions)
}

func TestMerge_DoesNotModifyItsArguments(t *testing.T) {
	v := testVocab(t)
	current := []metav1.Condition{cond("Ready", "True", "OK", 1, t0), cond("Accepted", "True", "OK", 1, t0)}
	desired := []metav1.Condition{want("Accepted", "False", "Invalid", 2), want("Ready", "False", "NotReady", 2)}
	c0, d0 := append([]metav1.Condition(nil), current...), append([]metav1.Condition(nil), desired...)
	v.Merge(current, desired, 2, now)
	assert.Equal(t, c0, current)
	assert.Equal(t, d0, desired)
}

func types(cs []metav1.Condition) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Type
	}
	return out
}

func TestMerge_ForeignPlacementAloneIsNoChange(t *testing.T) {
	v := testVocab(t)
	foreign := cond("Audited", "True", "ByOtherTool", 1, t0)
	// As a server-side apply may leave it: another writer's condition first.
	current := []metav1.Condition{foreign, cond("Accepted", "True", "OK", 1, t0), cond("Ready", "True", "OK", 1, t0)}
	desired := []metav1.Condition{want("Accepted", "True", "OK", 1), want("Ready", "True", "OK", 1)}
	r := v.Merge(current, desired, 1, now)
	assert.False(t, r.Changed, "only where the foreign condition sits differs")
	assert.Equal(t, []string{"Accepted", "Ready", "Audited"}, types(r.Conditions), "the result is still in canonical order")
	assert.Equal(t, foreign, r.Conditions[2])

	// A real change among ours is still a change.
	desired[1].Message = "a new message"
	assert.True(t, v.Merge(current, desired, 1, now).Changed)
	// So is a missing condition of ours.
	assert.True(t, v.Merge(current[:2], desired, 1, now).Changed)
}

// A foreign condition before ours is not a change (nothing is due), and
// the answer is still in the written order, ours first: a new slice.
// The property TestProperty_SettledShortcutAgreesWithTheRules once
// expected the current slice here and failed on about 1 case in 1,500.
func TestMerge_ForeignBeforeOursIsUnchangedButAnsweredInWrittenOrder(t *testing.T) {
	v := testVocab(t)
	current := []metav1.Condition{cond("Foreign", "True", "Whatever", 1, t0), cond("Accepted", "True", "OK", 2, t0)}
	r := v.Merge(current, []metav1.Condition{want("Accepted", "True", "OK", 2)}, 2, now)
	assert.False(t, r.Changed)
	assert.Equal(t, []string{"Accepted", "Foreign"}, types(r.Conditions))
	assert.Equal(t, []string{"Foreign", "Accepted"}, types(current), "current is not modified")
}

// The settled shortcut applies rule 2 too: a desired observedGeneration
// left zero is the generation, so a current condition observing 0 is out
// of date and a write is due.
func TestMerge_ZeroDesiredGenerationIsNotSettledAgainstZero(t *testing.T) {
	v := testVocab(t)
	current := []metav1.Condition{cond("Ready", "True", "OK", 0, t0)}
	r := v.Merge(current, []metav1.Condition{want("Ready", "True", "OK", 0)}, 1, now)
	assert.True(t, r.Changed)
	assert.Equal(t, int64(1), r.Conditions[0].ObservedGeneration)
}

// Order alone never makes a write due: ours standing in another order
// among themselves is no change, and the answer is the same conditions
// in the written order, a new slice; current is left as it is.
func TestMerge_OrderAloneIsNoChange(t *testing.T) {
	v := testVocab(t)
	current := []metav1.Condition{cond("Ready", "True", "OK", 1, t0), cond("Synced", "True", "OK", 1, t0), cond("Accepted", "True", "OK", 1, t0)}
	desired := []metav1.Condition{want("Accepted", "True", "OK", 1), want("Synced", "True", "OK", 1), want("Ready", "True", "OK", 1)}
	r := v.Merge(current, desired, 1, now)
	assert.False(t, r.Changed)
	assert.Equal(t, []string{"Accepted", "Synced", "Ready"}, types(r.Conditions))
	assert.Equal(t, []string{"Ready", "Synced", "Accepted"}, types(current), "current is not modified")

	// Ours out of order and among another writer's: still no change.
	mixed := []metav1.Condition{cond("Ready", "True", "OK", 1, t0), cond("Foreign", "True", "X", 1, t0), cond("Accepted", "True", "OK", 1, t0), cond("Synced", "True", "OK", 1, t0)}
	r = v.Merge(mixed, desired, 1, now)
	assert.False(t, r.Changed)
	assert.Equal(t, []string{"Accepted", "Synced", "Ready", "Foreign"}, types(r.Conditions))
}

// When a write is due for another reason, ours are written first, in
// the vocabulary's order, whatever order the object held them in.
func TestMerge_WriteDueForAnotherReasonPutsOursFirstInOrder(t *testing.T) {
	v := testVocab(t)
	current := []metav1.Condition{cond("Foreign", "True", "X", 1, t0), cond("Ready", "True", "OK", 1, t0), cond("Accepted", "True", "OK", 1, t0)}
	desired := []metav1.Condition{want("Accepted", "True", "OK", 1), want("Ready", "False", "NotReady", 1)}
	r := v.Merge(current, desired, 1, now)
	assert.True(t, r.Changed)
	assert.Equal(t, []string{"Accepted", "Ready", "Foreign"}, types(r.Conditions))
}

// A type of ours held twice is a change even in an order-free
// comparison: the write holds it once.
func TestMerge_RepeatedTypeOfOursIsAChangeWhateverTheOrder(t *testing.T) {
	v := testVocab(t)
	current := []metav1.Condition{cond("Ready", "True", "OK", 1, t0), cond("Accepted", "True", "OK", 1, t0), cond("Ready", "True", "OK", 1, t0)}
	r := v.Merge(current, []metav1.Condition{want("Accepted", "True", "OK", 1), want("Ready", "True", "OK", 1)}, 1, now)
	assert.True(t, r.Changed)
	assert.Equal(t, []string{"Accepted", "Ready"}, types(r.Conditions))
}
