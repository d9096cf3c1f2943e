package conditions

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkMergeObject measures the made-again step in front of Merge,
// beside Merge alone in the same run, on the unchanged path.
func BenchmarkMergeObject(b *testing.B) {
	for _, n := range []int{4, 32} {
		v := benchVocab(b, n)
		current, same, _ := benchSets(n)
		obj := madeAt(t0.Add(-time.Hour), 2)
		b.Run(fmt.Sprintf("n=%d/Merge", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if v.Merge(current, same, 2, now).Changed {
					b.Fatal("changed")
				}
			}
		})
		b.Run(fmt.Sprintf("n=%d/MergeObject", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if v.MergeObject(obj, current, same, now).Changed {
					b.Fatal("changed")
				}
			}
		})
	}
}
