package conditions

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// benchVocab has n types with two reasons each.
func benchVocab(b *testing.B, n int) *Vocabulary {
	types := make([]Type, n)
	for i := range types {
		types[i] = Type{Name: fmt.Sprintf("Type%02d", i), Reasons: []Reason{
			{Status: metav1.ConditionTrue, Reason: "OK"}, {Status: metav1.ConditionFalse, Reason: "Bad"}}}
	}
	v, err := NewVocabulary("bench.dev/v1", "Bench", types)
	if err != nil {
		b.Fatal(err)
	}
	return v
}

func benchSets(n int) (current, same, flipped []metav1.Condition) {
	for i := range n {
		c := metav1.Condition{Type: fmt.Sprintf("Type%02d", i), Status: metav1.ConditionTrue, Reason: "OK",
			ObservedGeneration: 1, LastTransitionTime: metav1.NewTime(t0)}
		current = append(current, c)
		s := c
		s.LastTransitionTime = metav1.Time{}
		same = append(same, s)
		s.Status, s.Reason, s.ObservedGeneration = metav1.ConditionFalse, "Bad", 2
		flipped = append(flipped, s)
	}
	return current, same, flipped
}

// BenchmarkMerge measures Merge beside a loop of meta.SetStatusCondition
// doing the same job, so the two can be read as a ratio from one run. The
// plain SetStatusCondition variant copies the list first to stay pure;
// SetStatusConditionInPlace does not, as a controller working on its own
// deep copy does not: the baseline the unchanged Merge is held to.
// MergeObject, the made-again step in front of Merge, runs beside them.
func BenchmarkMerge(b *testing.B) {
	for _, n := range []int{4, 8, 32, 64} {
		v := benchVocab(b, n)
		current, same, flipped := benchSets(n)
		b.Run(fmt.Sprintf("n=%d/unchanged", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if v.Merge(current, same, 2, now).Changed {
					b.Fatal("changed")
				}
			}
		})
		// MergeObject is Merge behind the made-again step; the two read as a
		// ratio on the unchanged path.
		obj := madeAt(t0.Add(-time.Hour), 2)
		b.Run(fmt.Sprintf("n=%d/unchanged/MergeObject", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if v.MergeObject(obj, current, same, now).Changed {
					b.Fatal("changed")
				}
			}
		})
		b.Run(fmt.Sprintf("n=%d/changed", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if !v.Merge(current, flipped, 2, now).Changed {
					b.Fatal("unchanged")
				}
			}
		})
		b.Run(fmt.Sprintf("n=%d/unchanged/SetStatusCondition", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				out := append([]metav1.Condition(nil), current...)
				changed := false
				for _, c := range same {
					changed = meta.SetStatusCondition(&out, c) || changed
				}
				_ = changed
			}
		})
		b.Run(fmt.Sprintf("n=%d/unchanged/SetStatusConditionInPlace", n), func(b *testing.B) {
			b.ReportAllocs()
			out := slices.Clone(current)
			for b.Loop() {
				changed := false
				for _, c := range same {
					changed = meta.SetStatusCondition(&out, c) || changed
				}
				if changed {
					b.Fatal("changed")
				}
			}
		})
		b.Run(fmt.Sprintf("n=%d/changed/SetStatusCondition", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				out := append([]metav1.Condition(nil), current...)
				for _, c := range flipped {
					meta.SetStatusCondition(&out, c)
				}
			}
		})
	}
}
