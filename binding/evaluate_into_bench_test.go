package binding_test

import (
	"runtime"
	"strconv"
	"testing"

	"github.com/condengine/condengine/binding"
)

// runtimeMem is the bytes allocated so far by the process.
type runtimeMem struct{ bytes uint64 }

func (m *runtimeMem) read() {
	var st runtime.MemStats
	runtime.ReadMemStats(&st)
	m.bytes = st.TotalAlloc
}

// warmUp evaluates s into buf twice, carrying the memory over as a host
// does: the second pass gives the memory its second array, so the passes
// after it allocate what a host's would.
func warmUp(tb testing.TB, buf *binding.ResultBuffer, s *binding.Snapshot) {
	for range 2 {
		s.Served = buf.Memory
		if err := binding.EvaluateInto(buf, *s); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkEvaluateInto measures the unchanged pass of
// BenchmarkEvaluateUnchanged evaluated into one ResultBuffer, the memory
// carried over from each pass to the next as a host does, beside the
// in-place meta.SetStatusCondition loop over the same conditions.
// B/Binding is the bytes allocated per Binding and pass.
func BenchmarkEvaluateInto(b *testing.B) {
	for _, n := range benchSizes() {
		s := benchWorld(n, true)
		s = binding.Apply(s, mustEvaluate(s))
		var buf binding.ResultBuffer
		warmUp(b, &buf, &s)
		if countWrites(buf.Result) != 0 {
			b.Fatalf("%d writes in the unchanged world", countWrites(buf.Result))
		}
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			cpu := cpuNow()
			var before, after runtimeMem
			before.read()
			for b.Loop() {
				s.Served = buf.Memory
				if err := binding.EvaluateInto(&buf, s); err != nil {
					b.Fatal(err)
				}
			}
			after.read()
			used := cpuNow() - cpu
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/Binding")
			b.ReportMetric(float64(used.Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/Binding")
			b.ReportMetric(float64(after.bytes-before.bytes)/float64(b.N)/float64(n), "B/Binding")
		})
		b.Run(strconv.Itoa(n)+"/SetStatusConditionInPlace", func(b *testing.B) {
			runSetStatusConditionInPlace(b, s)
		})
	}
}
