package conditions

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"
)

// genValidSet draws a list of this vocabulary's conditions with pairs from
// the table, at most one per type, in random order, plus foreign ones.
func genValidSet(t *rapid.T, v *Vocabulary, gen int64, label string, foreign bool) []metav1.Condition {
	var out []metav1.Condition
	for _, typ := range v.types {
		if !rapid.Bool().Draw(t, label+"-has-"+typ.Name) {
			continue
		}
		r := rapid.SampledFrom(typ.Reasons).Draw(t, label+"-reason-"+typ.Name)
		out = append(out, metav1.Condition{
			Type: typ.Name, Status: r.Status, Reason: r.Reason,
			Message:            rapid.SampledFrom([]string{"", "one", "two words"}).Draw(t, label+"-msg"),
			ObservedGeneration: rapid.Int64Range(0, gen).Draw(t, label+"-gen"),
			LastTransitionTime: metav1.NewTime(t0.Add(time.Duration(rapid.IntRange(0, 3600).Draw(t, label+"-at")) * time.Second)),
		})
	}
	if foreign {
		for i := range rapid.IntRange(0, 2).Draw(t, label+"-foreign") {
			out = append(out, metav1.Condition{Type: "Foreign" + string(rune('A'+i)), Status: "True", Reason: "Theirs",
				ObservedGeneration: rapid.Int64Range(0, 50).Draw(t, label+"-fgen"), LastTransitionTime: metav1.NewTime(t0)})
		}
	}
	perm := rapid.Permutation(out).Draw(t, label+"-order")
	return perm
}

// drawMerge draws a generation, the conditions on the object (with other
// writers' conditions when foreign is set) and the ones an evaluator wants.
func drawMerge(t *rapid.T, v *Vocabulary, foreign bool) (gen int64, current, desired []metav1.Condition) {
	gen = rapid.Int64Range(0, 5).Draw(t, "generation")
	return gen, genValidSet(t, v, gen, "current", foreign), genValidSet(t, v, gen, "desired", false)
}

func TestProperty_MergeIsIdempotent(t *testing.T) {
	v := testVocab(t)
	rapid.Check(t, func(t *rapid.T) {
		gen, current, desired := drawMerge(t, v, true)
		first := v.Merge(current, desired, gen, now)
		later := now.Add(time.Duration(rapid.IntRange(1, 1e6).Draw(t, "later")) * time.Second)
		second := v.Merge(first.Conditions, desired, gen, later)
		if second.Changed {
			t.Fatalf("merging the result again changed it:\nfirst  %v\nsecond %v", first.Conditions, second.Conditions)
		}
	})
}

func TestProperty_MergeOutputIgnoresDesiredOrder(t *testing.T) {
	v := testVocab(t)
	rapid.Check(t, func(t *rapid.T) {
		gen, current, desired := drawMerge(t, v, true)
		shuffled := rapid.Permutation(desired).Draw(t, "shuffled")
		a, b := v.Merge(current, desired, gen, now), v.Merge(current, shuffled, gen, now)
		if !Equal(a.Conditions, b.Conditions) || a.Changed != b.Changed {
			t.Fatalf("desired order changed the result:\n%v\n%v", a.Conditions, b.Conditions)
		}
	})
}

func TestProperty_TransitionTimeMovesIffStatusMoves(t *testing.T) {
	v := testVocab(t)
	rapid.Check(t, func(t *rapid.T) {
		gen, current, desired := drawMerge(t, v, false)
		r := v.Merge(current, desired, gen, now)
		if r.Stale {
			return
		}
		for _, c := range r.Conditions {
			old := Find(current, c.Type)
			moved := !c.LastTransitionTime.Equal(&metav1.Time{Time: now.Truncate(time.Second)})
			switch {
			case old == nil && moved:
				t.Fatalf("%s is new but its time is not now", c.Type)
			case old != nil && old.Status == c.Status && !c.LastTransitionTime.Equal(&old.LastTransitionTime):
				t.Fatalf("%s kept its status but its time moved", c.Type)
			case old != nil && old.Status != c.Status && moved:
				t.Fatalf("%s changed status but its time did not move to now", c.Type)
			}
		}
	})
}

func TestProperty_MergeOfValidInputPassesValidate(t *testing.T) {
	v := testVocab(t)
	rapid.Check(t, func(t *rapid.T) {
		gen := rapid.Int64Range(0, 5).Draw(t, "generation")
		current := genValidSet(t, v, gen, "current", true)
		// desired always carries the required types, as an evaluator's does
		desired := genValidSet(t, v, gen, "desired", false)
		for _, typ := range v.types {
			if typ.Required && Find(desired, typ.Name) == nil {
				desired = append(desired, metav1.Condition{Type: typ.Name, Status: typ.Reasons[0].Status, Reason: typ.Reasons[0].Reason, ObservedGeneration: gen})
			}
		}
		r := v.Merge(current, desired, gen, now)
		if r.Stale {
			return
		}
		if errs := v.Validate(r.Conditions, gen, condPath); len(errs) > 0 {
			t.Fatalf("Merge output fails Validate: %v\n%v", errs, r.Conditions)
		}
	})
}

func TestProperty_StaleIffOursDescribeANewerGeneration(t *testing.T) {
	v := testVocab(t)
	rapid.Check(t, func(t *rapid.T) {
		current := genValidSet(t, v, 6, "current", true)
		gen := rapid.Int64Range(0, 6).Draw(t, "generation")
		r := v.Merge(current, nil, gen, now)
		stale := false
		for _, c := range current {
			if v.Has(c.Type) && c.ObservedGeneration > gen {
				stale = true
			}
		}
		if r.Stale != stale {
			t.Fatalf("stale=%v, want %v", r.Stale, stale)
		}
		if r.Stale && (r.Changed || !Equal(r.Conditions, current)) {
			t.Fatal("a stale merge must return current unchanged")
		}
	})
}

// TestProperty_SettledShortcutAgreesWithTheRules checks Merge's shortcut
// for a settled object against the full rules: on lists drawn near the
// settled case (the object's own conditions asked for again, sometimes
// with one field moved, a foreign one added or the order changed) the two
// give the same result, and an unchanged result is the current slice.
func TestProperty_SettledShortcutAgreesWithTheRules(t *testing.T) {
	v := testVocab(t)
	rapid.Check(t, func(t *rapid.T) {
		gen, current, desired := drawMerge(t, v, rapid.IntRange(0, 3).Draw(t, "foreign") == 0)
		if rapid.IntRange(0, 4).Draw(t, "settled") > 0 {
			current = v.merge(current, desired, gen, now).Conditions
			desired = nil
			for _, c := range current {
				if v.Index(c.Type) >= 0 {
					c.LastTransitionTime = metav1.Time{}
					desired = append(desired, c)
				}
			}
			if len(desired) > 0 {
				i := rapid.IntRange(0, len(desired)-1).Draw(t, "moved")
				// 0 and 8 leave the settled lists as they are.
				switch rapid.IntRange(0, 8).Draw(t, "how") {
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
					current = append([]metav1.Condition(nil), current...)
					current[i].LastTransitionTime = metav1.Time{}
				case 7: // the object is newer than the snapshot
					current = append([]metav1.Condition(nil), current...)
					j := v.Index(desired[i].Type)
					for k := range current {
						if v.Index(current[k].Type) == j {
							current[k].ObservedGeneration = gen + 1
						}
					}
					desired[i].ObservedGeneration = gen + 1
				}
			}
		}
		got, want := v.Merge(current, desired, gen, now), v.merge(current, desired, gen, now)
		if !Equal(got.Conditions, want.Conditions) || got.Changed != want.Changed || got.Stale != want.Stale ||
			len(got.Ignored) != len(want.Ignored) {
			t.Fatalf("shortcut and rules differ:\nshortcut %+v\nrules    %+v", got, want)
		}
		// An unchanged result is the current slice itself unless ours
		// stand in another order (among themselves, or after another
		// writer's condition): then it is the same conditions in the
		// written order (MergeResult.Conditions).
		if !got.Changed && len(got.Conditions) > 0 && writtenOrder(v, current) && &got.Conditions[0] != &current[0] {
			t.Fatal("an unchanged result in the written order is not the current slice")
		}
		if !got.Changed && !writtenOrder(v, got.Conditions) {
			t.Fatalf("an unchanged result is not in the written order: %+v", got.Conditions)
		}
	})
}

// writtenOrder reports whether every condition of v's types stands
// before every other writer's in conds, in the vocabulary's order.
func writtenOrder(v *Vocabulary, conds []metav1.Condition) bool {
	foreign, prev := false, -1
	for _, c := range conds {
		t := v.Index(c.Type)
		if t < 0 {
			foreign = true
		} else if foreign || t <= prev {
			return false
		} else {
			prev = t
		}
	}
	return true
}

// Order alone never makes a write due: the object's conditions in any
// other order (at most one per type, as an API server keeps them) merge
// to the same answer, and to the same verdict; a settled object in any
// order is unchanged.
func TestProperty_OrderAloneIsNoChange(t *testing.T) {
	v := testVocab(t)
	rapid.Check(t, func(t *rapid.T) {
		gen, current, desired := drawMerge(t, v, true)
		if rapid.Bool().Draw(t, "settled") {
			current = v.Merge(current, desired, gen, now).Conditions
		}
		shuffled := rapid.Permutation(current).Draw(t, "shuffled")
		a, b := v.Merge(current, desired, gen, now), v.Merge(shuffled, desired, gen, now)
		if a.Changed != b.Changed || a.Stale != b.Stale {
			t.Fatalf("the object's order changed the verdict: changed %v/%v stale %v/%v", a.Changed, b.Changed, a.Stale, b.Stale)
		}
		if settledFirst := !a.Stale && !a.Changed; settledFirst && b.Changed {
			t.Fatal("a settled object in another order needs a write")
		}
		if !a.Stale && !Equal(v.Owned(a.Conditions), v.Owned(b.Conditions)) {
			t.Fatalf("the object's order changed our conditions:\n%v\n%v", a.Conditions, b.Conditions)
		}
	})
}
