package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"syscall"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/condengine/condengine/cmd/internal/genstream"
)

// floorInputs builds the genstream stream of n Bindings twice: as the
// YAML stream `eval -f` reads, and as the single JSON List that
// `kubectl get -o json` prints for the same objects.
func floorInputs(b testing.TB, n int) (yamlStream, jsonList []byte) {
	var buf bytes.Buffer
	if err := genstream.Write(&buf, n, max(1, n/100)); err != nil {
		b.Fatal(err)
	}
	yamlStream = buf.Bytes()
	var items []any
	for _, doc := range bytes.Split(yamlStream, []byte("\n---\n")) {
		var o map[string]any
		if err := yaml.Unmarshal(doc, &o); err != nil {
			b.Fatal(err)
		}
		if o != nil {
			items = append(items, o)
		}
	}
	jsonList, err := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": items})
	if err != nil {
		b.Fatal(err)
	}
	return yamlStream, jsonList
}

// BenchmarkEvalFloor measures `condengine eval` beside the floor any
// reader of the same input pays: decoding it into unstructured objects
// and nothing more, with sigs.k8s.io/yaml for the YAML stream and with
// encoding/json for kubectl's JSON List. eval/decode of one format, from
// one run, is the ratio the performance notes hold to 1.5.
func BenchmarkEvalFloor(b *testing.B) {
	now, _ := time.Parse(time.RFC3339, fixedNow)
	for _, n := range []int{10_000, 100_000} {
		// The inputs are built on first use, so a -bench filter that
		// leaves out a size does not pay for building it.
		var yamlStream, jsonList []byte
		inputs := func(b *testing.B) {
			if yamlStream == nil {
				yamlStream, jsonList = floorInputs(b, n)
			}
		}
		// CPU time is the figure to compare on a shared machine: wall
		// time swings with other load, over minutes at 100k.
		var cpu time.Duration
		perBinding := func(b *testing.B) {
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/Binding")
			b.ReportMetric(float64((cpuNow()-cpu).Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/Binding")
		}
		// measure runs one sub-benchmark on the inputs of size n, with
		// its time per Binding reported.
		measure := func(name string, body func(b *testing.B)) {
			b.Run(strconv.Itoa(n)+"/"+name, func(b *testing.B) {
				inputs(b)
				cpu = cpuNow()
				body(b)
				perBinding(b)
			})
		}
		measure("yaml/decode", func(b *testing.B) {
			b.SetBytes(int64(len(yamlStream)))
			b.ReportAllocs()
			for b.Loop() {
				k := 0
				for _, doc := range bytes.Split(yamlStream, []byte("\n---\n")) {
					var u unstructured.Unstructured
					if err := yaml.Unmarshal(doc, &u.Object); err != nil {
						b.Fatal(err)
					}
					k++
				}
				if k < n {
					b.Fatalf("%d documents, want at least %d", k, n)
				}
			}
		})
		measure("yaml/eval", func(b *testing.B) {
			benchEvalOnce(b, yamlStream, now)
		})
		measure("json/decode", func(b *testing.B) {
			b.SetBytes(int64(len(jsonList)))
			b.ReportAllocs()
			for b.Loop() {
				var list unstructured.UnstructuredList
				if err := list.UnmarshalJSON(jsonList); err != nil {
					b.Fatal(err)
				}
				if len(list.Items) < n {
					b.Fatalf("%d items, want at least %d", len(list.Items), n)
				}
			}
		})
		measure("json/eval", func(b *testing.B) {
			benchEvalOnce(b, jsonList, now)
		})
	}
}

// cpuNow is the process's CPU time (user and system).
func cpuNow() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func benchEvalOnce(b *testing.B, input []byte, now time.Time) {
	b.SetBytes(int64(len(input)))
	b.ReportAllocs()
	for b.Loop() {
		if err := seedCmd.evalTo(io.Discard, "yaml", "bench", bytes.NewReader(input), now, func([]string) {}); err != nil {
			b.Fatal(err)
		}
	}
}
