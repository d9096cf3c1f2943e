package binding_test

import (
	"os"
	"runtime"
	"strconv"
	"testing"
	"unsafe"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
)

// scaleSizes are the sizes of the million-Binding benchmarks. They build
// worlds of gigabytes and take minutes, so they run only when
// CONDENGINE_BENCH_SCALE is set: never in CI, and once, late, on a shared
// machine. Set to a number above 1 (CONDENGINE_BENCH_SCALE=100000), it
// is the largest size run.
func scaleSizes(b *testing.B) []int {
	v := os.Getenv("CONDENGINE_BENCH_SCALE")
	if v == "" {
		b.Skip("set CONDENGINE_BENCH_SCALE=1 to build worlds of up to a million Bindings")
	}
	sizes := []int{1_000, 100_000, 1_000_000}
	if most, err := strconv.Atoi(v); err == nil && most > 1 {
		for len(sizes) > 1 && sizes[len(sizes)-1] > most {
			sizes = sizes[:len(sizes)-1]
		}
	}
	return sizes
}

// heapInUse is the live heap after a full collection.
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkIncrementalScale measures, at 1k, 100k and 1M Bindings, one
// Binding edited in a settled world (as BenchmarkIncremental does) and
// what the Incremental holds per Binding once built: the live heap with
// the snapshot and the Incremental, less the heap with the snapshot
// alone. held-B/Binding is all of it; copy-B/Binding the part that is
// the Incremental's own copy of each Binding's struct (the strings are
// shared with the snapshot); state-B/Binding the rest: indexes,
// outcomes, memory and probe entries.
func BenchmarkIncrementalScale(b *testing.B) {
	for _, n := range scaleSizes(b) {
		s := benchWorld(n, true)
		s = binding.Apply(s, mustEvaluate(s))
		before := heapInUse()
		e, _, err := binding.NewIncremental(s)
		if err != nil {
			b.Fatal(err)
		}
		held := float64(heapInUse()-before) / float64(n)
		copied := float64(unsafe.Sizeof(akv1.Binding{}))
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			stepLoop(b, e, s.Bindings[n/2])
			b.ReportMetric(held, "held-B/Binding")
			b.ReportMetric(copied, "copy-B/Binding")
			b.ReportMetric(held-copied, "state-B/Binding")
		})
		runtime.KeepAlive(e)
	}
}
