package conditions

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"
)

// madeAt is an object created at the given instant, at generation gen.
func madeAt(at time.Time, gen int64) *metav1.ObjectMeta {
	return &metav1.ObjectMeta{Generation: gen, CreationTimestamp: metav1.NewTime(at)}
}

// remade is when an object was made again under a name whose earlier
// object's conditions were written at t0.
var remade = t0.Add(time.Hour)

// mergeAcceptedOK merges, for the object of generation 1 made at remade,
// the wish for Accepted True OK into current.
func mergeAcceptedOK(v *Vocabulary, current []metav1.Condition) MergeResult {
	return v.MergeObject(madeAt(remade, 1), current, []metav1.Condition{want("Accepted", "True", "OK", 1)}, now)
}

func TestHeld_LeavesOutOursFromAnEarlierObject(t *testing.T) {
	v := testVocab(t)
	current := []metav1.Condition{
		cond("Accepted", "True", "OK", 1, t0),            // before creation: the old object's
		cond("Foreign", "True", "Whatever", 1, t0),       // another writer's: kept
		cond("Ready", "True", "OK", 1, remade),           // at creation: this object's
		{Type: "Accepted", Status: "True", Reason: "OK"}, // no time: no evidence, kept
	}
	got := v.Held(current, remade)
	assert.Equal(t, []string{"Foreign", "Ready", "Accepted"}, types(got))
	assert.Equal(t, "Accepted", current[0].Type, "the argument is not modified")
}

func TestHeld_NothingLeftOutIsTheSameSlice(t *testing.T) {
	v := testVocab(t)
	current := []metav1.Condition{cond("Accepted", "True", "OK", 1, t0)}
	assert.Same(t, &current[0], &v.Held(current, t0)[0])
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = v.Held(current, t0) }))
}

func TestMergeObject_MadeAgainTimeIsNotCarriedOver(t *testing.T) {
	v := testVocab(t)
	current := []metav1.Condition{cond("Accepted", "True", "OK", 1, t0)}
	r := mergeAcceptedOK(v, current)
	require.True(t, r.Changed, "the same status, but written for another object")
	require.Len(t, r.Conditions, 1)
	assert.True(t, r.Conditions[0].LastTransitionTime.Time.Equal(now.Truncate(time.Second)))
	assert.False(t, r.Conditions[0].LastTransitionTime.Time.Before(remade))

	// Merge alone, which does not know the object, would carry it over.
	assert.True(t, v.Merge(current, []metav1.Condition{want("Accepted", "True", "OK", 1)}, 1, now).Conditions[0].LastTransitionTime.Time.Equal(t0))
}

func TestMergeObject_MadeAgainDroppedIsAChange(t *testing.T) {
	v := testVocab(t)
	at := remade.Add(time.Minute)
	current := []metav1.Condition{cond("Accepted", "True", "OK", 1, at), cond("Ready", "True", "OK", 1, t0)}
	// The evaluator no longer wants Ready; Merge on the filtered list alone
	// would see nothing to do.
	r := mergeAcceptedOK(v, current)
	assert.True(t, r.Changed)
	require.Len(t, r.Conditions, 1)
	assert.True(t, r.Conditions[0].LastTransitionTime.Time.Equal(at))
}

func TestMergeObject_MadeAgainIsNotStale(t *testing.T) {
	v := testVocab(t)
	current := []metav1.Condition{cond("Accepted", "True", "OK", 7, t0)}
	r := mergeAcceptedOK(v, current)
	assert.False(t, r.Stale, "generation 7 was the earlier object's")
	assert.True(t, r.Changed)

	fresh := []metav1.Condition{cond("Accepted", "True", "OK", 7, remade)}
	r = mergeAcceptedOK(v, fresh)
	assert.True(t, r.Stale)
	assert.Same(t, &fresh[0], &r.Conditions[0])
}

func TestMergeObject_ForeignKeptWhateverItsTime(t *testing.T) {
	v := testVocab(t)
	current := []metav1.Condition{cond("Accepted", "True", "OK", 1, remade), cond("Foreign", "True", "Whatever", 1, t0)}
	r := mergeAcceptedOK(v, current)
	assert.False(t, r.Changed)
	assert.Equal(t, current, r.Conditions)
}

// A host whose clock is behind the API server's sees an object created
// after its now. What it writes must read as this object's on the next
// pass, or every pass writes again until the clocks agree.
func TestMergeObject_CreatedAfterNowSettles(t *testing.T) {
	v := testVocab(t)
	for _, tc := range []struct {
		name    string
		created time.Time
		stamp   time.Time
	}{
		{"a whole second", now.Truncate(time.Second).Add(36 * time.Hour), now.Truncate(time.Second).Add(36 * time.Hour)},
		{"between seconds", now.Add(36 * time.Hour), now.Truncate(time.Second).Add(36*time.Hour + time.Second)},
		{"within now's second", now.Truncate(time.Second).Add(300 * time.Millisecond), now.Truncate(time.Second).Add(time.Second)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !now.Truncate(time.Second).Before(tc.created) {
				t.Fatalf("the case needs a creation after now's second")
			}
			desired := []metav1.Condition{want("Accepted", "True", "OK", 1)}
			obj := madeAt(tc.created, 1)
			first := v.MergeObject(obj, nil, desired, now)
			require.True(t, first.Changed)
			got := first.Conditions[0].LastTransitionTime.Time
			assert.True(t, got.Equal(tc.stamp), "stamped %v, want %v", got, tc.stamp)
			assert.False(t, got.Before(tc.created), "stamped before the object was created")
			for _, later := range []time.Duration{0, time.Second, time.Minute, 48 * time.Hour} {
				again := v.MergeObject(obj, first.Conditions, desired, now.Add(later))
				assert.False(t, again.Changed, "%v later: the condition just written reads as another object's", later)
			}
		})
	}
}

func TestMergeObject_CreatedBeforeNowStampsNow(t *testing.T) {
	v := testVocab(t)
	r := v.MergeObject(madeAt(now.Add(-time.Hour), 1), nil, []metav1.Condition{want("Accepted", "True", "OK", 1)}, now)
	assert.True(t, r.Conditions[0].LastTransitionTime.Time.Equal(now.Truncate(time.Second)))
}

// TestProperty_MergeVerdictsIsMergeObject holds MergeVerdicts to
// MergeObject on the conditions the verdicts build: the same answer,
// and current itself whenever MergeObject answers with it. Most cases
// are an object that already holds what the verdicts decide, then moved
// by one field, so that the shortcut's every comparison is reached.
func TestProperty_MergeVerdictsIsMergeObject(t *testing.T) {
	v := testVocab(t)
	rapid.Check(t, func(t *rapid.T) {
		gen, current, desired := drawMerge(t, v, rapid.IntRange(0, 3).Draw(t, "foreign") == 0)
		created := t0.Add(time.Duration(rapid.IntRange(-60, 3600).Draw(t, "created")) * time.Second)
		obj := madeAt(created, gen)
		if rapid.IntRange(0, 4).Draw(t, "settled") > 0 {
			current = v.MergeObject(obj, current, desired, now).Conditions
			desired = nil
			for _, c := range current {
				if v.Index(c.Type) >= 0 {
					desired = append(desired, c)
				}
			}
			if len(desired) > 0 {
				i := rapid.IntRange(0, len(desired)-1).Draw(t, "moved")
				// 0 leaves the settled lists as they are.
				switch rapid.IntRange(0, 10).Draw(t, "how") {
				case 1:
					desired[i].Message += "!"
				case 2:
					desired[i].ObservedGeneration++
				case 3:
					desired = append(desired, desired[i])
				case 4:
					desired = rapid.Permutation(desired).Draw(t, "order")
				case 5:
					desired[i].Type = "Unknown"
				case 6:
					current = slices.Clone(current)
					current[i].LastTransitionTime = metav1.Time{}
				case 7: // the object is newer than the snapshot
					current = slices.Clone(current)
					for k := range current {
						if current[k].Type == desired[i].Type {
							current[k].ObservedGeneration = gen + 1
						}
					}
					desired[i].ObservedGeneration = gen + 1
				case 8: // made again after the condition was written
					obj = madeAt(current[i].LastTransitionTime.Add(time.Second), gen)
				case 9:
					desired[i].ObservedGeneration = 0
				case 10:
					desired[i].Status, desired[i].Reason = metav1.ConditionUnknown, "Pending"
				}
			}
		}
		types := make([]string, len(desired))
		vs := make([]Verdict, len(desired))
		for i, d := range desired {
			types[i] = d.Type
			vs[i] = Verdict{Status: d.Status, Reason: d.Reason, Message: d.Message, Generation: d.ObservedGeneration}
			desired[i] = vs[i].Condition(types[i])
		}
		got, want := v.MergeVerdicts(obj, current, types, vs, now), v.MergeObject(obj, current, desired, now)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("MergeVerdicts and MergeObject differ:\nverdicts %+v\nobject   %+v", got, want)
		}
		if len(want.Conditions) > 0 && len(current) > 0 && &want.Conditions[0] == &current[0] && &got.Conditions[0] != &current[0] {
			t.Fatal("MergeObject answered with current itself and MergeVerdicts did not")
		}
		// The shortcut takes exactly MergeObject's quiet case, so that it
		// is the path taken, not only an answer equal to it.
		created = obj.GetCreationTimestamp().Time
		quiet := len(v.Held(current, created)) == len(current) && v.settled(current, desired, gen)
		if s := v.settledVerdicts(current, types, vs, gen, created); s != quiet {
			t.Fatalf("the shortcut says settled %v, MergeObject's quiet case %v", s, quiet)
		}
	})
}

func TestMergeVerdicts_SettledAllocatesNothing(t *testing.T) {
	v := testVocab(t)
	obj := madeAt(t0, 1)
	current := []metav1.Condition{cond("Accepted", "True", "OK", 1, t0), cond("Ready", "True", "OK", 1, t0)}
	types := []string{"Accepted", "Ready"}
	vs := []Verdict{{Status: "True", Reason: "OK", Generation: 1}, {Status: "True", Reason: "OK"}}
	r := v.MergeVerdicts(obj, current, types, vs, now)
	require.False(t, r.Changed)
	assert.Same(t, &current[0], &r.Conditions[0])
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = v.MergeVerdicts(obj, current, types, vs, now) }))
}
