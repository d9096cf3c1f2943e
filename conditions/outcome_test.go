package conditions

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"
)

func TestMerge_ZeroObservedGenerationTakesTheGivenOne(t *testing.T) {
	v := testVocab(t)
	desired := []metav1.Condition{want("Accepted", "True", "OK", 0), want("Ready", "True", "OK", 4)}
	r := v.Merge(nil, desired, 7, now)
	require.Len(t, r.Conditions, 2)
	assert.Equal(t, int64(7), r.Conditions[0].ObservedGeneration, "left zero: the generation Merge is given")
	assert.Equal(t, int64(4), r.Conditions[1].ObservedGeneration, "given: kept as given")
	assert.Equal(t, int64(0), desired[0].ObservedGeneration, "desired is not modified")

	// Written that way once, the same desired list is no change.
	again := v.Merge(r.Conditions, desired, 7, now.Add(time.Hour))
	assert.False(t, again.Changed)
}

func TestOwned_NeverHoldsAForeignType(t *testing.T) {
	v := testVocab(t)
	foreign := cond("Audited", "True", "ByOtherTool", 1, t0)
	acc, ready := cond("Accepted", "True", "OK", 1, t0), cond("Ready", "True", "OK", 1, t0)
	for _, tc := range []struct {
		name string
		in   []metav1.Condition
		want []metav1.Condition
	}{
		{"none", nil, nil},
		{"only foreign", []metav1.Condition{foreign}, nil},
		{"ours first", []metav1.Condition{acc, ready, foreign}, []metav1.Condition{acc, ready}},
		{"foreign between", []metav1.Condition{acc, foreign, ready}, []metav1.Condition{acc, ready}},
		{"foreign first", []metav1.Condition{foreign, acc}, []metav1.Condition{acc}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := v.Owned(tc.in)
			assert.Equal(t, tc.want, got)
			for _, c := range got {
				assert.True(t, v.Has(c.Type), "foreign type %s in Owned", c.Type)
			}
			// Appending to Owned never writes into the list it came from.
			before := append([]metav1.Condition(nil), tc.in...)
			_ = append(got, foreign, foreign)
			assert.Equal(t, before, tc.in)
		})
	}
}

func TestOwned_PrefixDoesNotAllocate(t *testing.T) {
	v := testVocab(t)
	in := []metav1.Condition{cond("Accepted", "True", "OK", 1, t0), cond("Audited", "True", "X", 1, t0)}
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = v.Owned(in) }))
}

func TestOutcomeDecide(t *testing.T) {
	for _, tc := range []struct {
		name    string
		m       MergeResult
		changed bool
		write   bool
		skip    Skip
	}{
		{"stale wins over a change", MergeResult{Stale: true, Changed: true}, true, false, SkipStale},
		{"conditions changed", MergeResult{Changed: true}, false, true, SkipNone},
		{"other status fields changed", MergeResult{}, true, true, SkipNone},
		{"nothing changed", MergeResult{}, false, false, SkipUnchanged},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var o Outcome
			o.Decide(tc.m, tc.changed)
			assert.Equal(t, tc.write, o.Write)
			assert.Equal(t, tc.skip, o.Skip)
			assert.Equal(t, tc.write, o.Due(), "from Merge alone, due is write")
		})
	}
}

func TestCheckNow(t *testing.T) {
	assert.ErrorIs(t, CheckNow(time.Time{}), ErrZeroNow)
	assert.NoError(t, CheckNow(now))
}

func TestCompareOrdersByKindNamespaceNameUID(t *testing.T) {
	a := Outcome{Kind: "A", Namespace: "z", Name: "z", UID: "z"}
	b := Outcome{Kind: "B", Namespace: "a", Name: "a", UID: "a"}
	assert.Negative(t, Compare(&a, &b))
	c := Outcome{Kind: "B", Namespace: "a", Name: "a", UID: "b"}
	assert.Negative(t, Compare(&b, &c))
	assert.Zero(t, Compare(&c, &c))
}

func TestOutcomeDue(t *testing.T) {
	for skip, due := range map[Skip]bool{SkipNone: true, SkipStale: false, SkipUnchanged: false,
		SkipConfigMapRoute: true, SkipNotLeader: true, SkipHeld: true, SkipNeverWritten: false} {
		o := Outcome{Write: skip == SkipNone, Skip: skip}
		assert.Equal(t, due, o.Due(), "skip %q", skip)
	}
}

// TestRequeueAfter_NeverZeroWhenARetryIsDue pins the contract a
// controller-runtime host relies on: Result{RequeueAfter: 0} means "do
// not requeue", so a due retry must never answer 0.
func TestRequeueAfter_NeverZeroWhenARetryIsDue(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		o    Outcome
		want time.Duration
	}{
		{"no retry", Outcome{}, 0},
		{"retry later", Outcome{Retry: true, RetryAt: at.Add(90 * time.Second)}, 90 * time.Second},
		{"retry at now", Outcome{Retry: true, RetryAt: at}, RetryDelay},
		{"retry in the past", Outcome{Retry: true, RetryAt: at.Add(-time.Hour)}, RetryDelay},
		{"retry with no instant", Outcome{Retry: true}, RetryDelay},
		{"retry just after now", Outcome{Retry: true, RetryAt: at.Add(time.Millisecond)}, RetryDelay},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.o.RequeueAfter(at))
		})
	}
}

// TestProperty_OwnedIsOursInTheirOrder holds Owned to its definition on
// any list: the conditions of the vocabulary's types, in their order,
// nil when there is none, and never room to append into the list it
// came from.
func TestProperty_OwnedIsOursInTheirOrder(t *testing.T) {
	v := testVocab(t)
	rapid.Check(t, func(t *rapid.T) {
		conds := genValidSet(t, v, 3, "conds", rapid.Bool().Draw(t, "foreign"))
		if len(conds) > 0 && rapid.Bool().Draw(t, "repeat") {
			conds = append(conds, conds[rapid.IntRange(0, len(conds)-1).Draw(t, "repeated")])
		}
		var want []metav1.Condition
		for _, c := range conds {
			if v.Has(c.Type) {
				want = append(want, c)
			}
		}
		got := v.Owned(conds)
		if !Equal(got, want) || (got == nil) != (want == nil) {
			t.Fatalf("Owned(%v) = %v, want %v", types(conds), types(got), types(want))
		}
		if len(got) > 0 && cap(got) != len(got) {
			t.Fatalf("Owned leaves room to append into the list: len %d, cap %d", len(got), cap(got))
		}
	})
}
