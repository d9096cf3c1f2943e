package binding_test

import (
	"strconv"
	"testing"

	"github.com/condengine/condengine/binding"
)

// BenchmarkExplain measures what provenance costs: Evaluate and Explain
// side by side on the same settled healthy world, so their ratio comes
// from one run.
func BenchmarkExplain(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		s := benchWorld(n, true)
		s = binding.Apply(s, mustEvaluate(s))
		for _, f := range []struct {
			name string
			run  func(binding.Snapshot) (binding.Result, error)
		}{{"evaluate", binding.Evaluate}, {"explain", binding.Explain}} {
			b.Run(strconv.Itoa(n)+"/"+f.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := f.run(s); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
