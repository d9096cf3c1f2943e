package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// Reading costs at most a constant times the input, in memory, and about
// its size in time, whatever the input holds and whether it is read or
// refused: every shape below, at a size and at four times that size, is
// read as eval reads (NextTyped, then ExpandNew and Unmarshal for what
// is not decoded straight), and
//
//   - what it allocates grows at most costGrowth times (4 for linear
//     growth, 16 for quadratic), and is at most the shape's allowance per
//     input byte: garbage included, so a bound on the peak too;
//   - the CPU time it takes grows at most timeGrowth times, the best of
//     several tries each, with the collector off while timing.
//
// Depth grows with size where a shape nests (Lists in Lists, brackets in
// brackets), so the test runs over growing depth as well as size. The
// peak resident memory of the commands and the library decoders on
// larger inputs is measured by the opt-in test in cmd/condengine
// (CONDENGINE_COST=1 go test -run Cost ./cmd/condengine).
//
// Each shape is a defect this reader had: Lists in Lists read again per
// level (1,000 levels around 1 MiB: 1 GiB and 17 s), a number's digits
// read by math/big in time quadratic in them (4M digits: 22.8 s),
// nesting scanned with a frame per level before it was refused (92
// times its size), YAML items placed by a search to the end of the text
// once per item.

// costGrowth bounds how much allocation may grow when the input grows
// four times, and timeGrowth how much CPU time may: n log n at these
// sizes is 4.4 times, with room for a larger heap's cache misses and a
// shared machine; quadratic is 16.
const (
	costGrowth = 6.5
	timeGrowth = 8
)

// costShape is one kind of input, built at about n bytes, and what it
// may allocate per input byte.
type costShape struct {
	name  string
	build func(n int) string
	// perByte bounds allocation per input byte, beyond a fixed allowance
	// (the reader's buffers, and a YAML parser's stacks up to its depth
	// limit). Converting YAML makes garbage many times its size (the
	// YAML library's).
	perByte float64
	yaml    bool
}

// fixedAlloc is what any read may allocate whatever its size: the
// reader's buffers, 100 KiB; for YAML, the parser's stacks, which grow
// to its nesting limit before it refuses.
func (s costShape) fixedAlloc() float64 {
	if s.yaml {
		return 16 << 20
	}
	return 1 << 20
}

var costBinding = "apiVersion: agentkourier.dev/v1alpha1\nkind: Binding\nmetadata:\n  namespace: team\n  name: b%d\n  uid: u%d\n  generation: 2\nspec:\n  agent: {backendRef: {name: be}}\n  chat: {connectionRef: {name: c}, channel: C%d}\n"

// repeatTo repeats part(i) until the text holds n bytes.
func repeatTo(n int, head, sep, tail string, part func(i int) string) string {
	var b strings.Builder
	b.WriteString(head)
	for i := 0; b.Len() < n; i++ {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(part(i))
	}
	b.WriteString(tail)
	return b.String()
}

var costShapes = []costShape{
	{"YAML stream", func(n int) string {
		return repeatTo(n, "", "---\n", "", func(i int) string { return fmt.Sprintf(costBinding, i, i, i) })
	}, 160, true},
	{"YAML List", func(n int) string {
		return repeatTo(n, "apiVersion: v1\nkind: List\nitems:\n", "", "", func(i int) string {
			return "- " + strings.ReplaceAll(strings.TrimSuffix(fmt.Sprintf(costBinding, i, i, i), "\n"), "\n", "\n  ") + "\n"
		})
	}, 160, true},
	{"JSON List", func(n int) string { return string(listOf(n/300, true)) }, 24, false},
	{"CR line ends", func(n int) string {
		return strings.ReplaceAll(repeatTo(n, "", "---\n", "", func(i int) string { return fmt.Sprintf(costBinding, i, i, i) }), "\n", "\r")
	}, 160, true},
	{"BOM before a JSON List", func(n int) string { return string(bom) + string(listOf(n/300, true)) }, 24, false},
	{"JSON Lists nested as deep as they grow", func(n int) string {
		depth := n / 1024
		return strings.Repeat(`{"kind":"List","items":[`, depth) + `{"kind":"A","metadata":{"name":"a","annotations":{"x":"` +
			strings.Repeat("x", n/2) + `"}}}` + strings.Repeat("]}", depth)
	}, 16, false},
	{"JSON Lists nested MaxListDepth deep", func(n int) string {
		return strings.Repeat(`{"items":[`, MaxListDepth) + `{"kind":"A","metadata":{"name":"a","annotations":{"x":"` +
			strings.Repeat("x", n) + `"}}}` + strings.Repeat(`],"kind":"List"}`, MaxListDepth)
	}, 16, false},
	{"YAML Lists nested as deep as they grow", func(n int) string {
		var b strings.Builder
		depth := max(n/4096, 2*MaxListDepth)
		for l := range depth {
			pad := strings.Repeat(" ", 2*l)
			b.WriteString(pad + "- kind: List\n" + pad + "  items:\n")
		}
		b.WriteString(strings.Repeat(" ", 2*depth) + "- kind: A\n" + strings.Repeat(" ", 2*depth) + "  metadata: {name: a, annotations: {x: " + strings.Repeat("x", n/2) + "}}\n")
		return "kind: List\nitems:\n" + b.String()
	}, 160, true},
	{"YAML Lists from a merge key, one per item", func(n int) string {
		return "base: &l {kind: List, items: [{kind: A}]}\nkind: List\nitems:\n" + strings.Repeat("- {<<: *l, metadata: {}}\n", n/25)
	}, 320, true},
	{"brackets in brackets", func(n int) string { return strings.Repeat(`{"a":[`, n/6) }, 8, false},
	{"open brackets", func(n int) string { return strings.Repeat(`[`, n) }, 8, false},
	{"Lists open to the end", func(n int) string { return strings.Repeat(`{"items":[`, n/10) }, 8, false},
	{"YAML flow mappings in flow mappings", func(n int) string { return strings.Repeat(`{a: `, n/4) }, 160, true},
	{"a number of n digits in JSON", func(n int) string {
		return `{"apiVersion":"agentkourier.dev/v1alpha1","kind":"Binding","metadata":{"namespace":"a","name":"b","generation":` + strings.Repeat("9", n) + `}}`
	}, 40, false},
	{"a number of n digits in YAML", func(n int) string {
		return "apiVersion: agentkourier.dev/v1alpha1\nkind: Binding\nmetadata:\n  namespace: a\n  name: b\n  generation: " + strings.Repeat("9", n) + "\n"
	}, 160, true},
	{"a fraction of n digits", func(n int) string {
		return `{"apiVersion":"agentkourier.dev/v1alpha1","kind":"Binding","metadata":{"namespace":"a","name":"b","generation":1.` + strings.Repeat("5", n) + `e` + strings.Repeat("9", 30) + `}}`
	}, 40, false},
	{"an object of many keys", func(n int) string {
		return repeatTo(n, `{"apiVersion":"agentkourier.dev/v1alpha1","kind":"Binding","metadata":{"namespace":"a","name":"b","labels":{`, ",", `}}}`,
			func(i int) string { return fmt.Sprintf(`"k%d":"v"`, i) })
	}, 64, false},
	{"a List of small items", func(n int) string {
		return repeatTo(n, `{"kind":"List","items":[`, ",", `]}`, func(i int) string { return fmt.Sprintf(`{"kind":"A","metadata":{"name":"a%d"}}`, i) })
	}, 64, false},
	{"a key given twice at the end of many", func(n int) string {
		return repeatTo(n, `{"kind":"A","metadata":{"name":"a"},"data":{`, ",", `,"k0":""}}`, func(i int) string { return fmt.Sprintf(`"k%d":""`, i) })
	}, 64, false},
}

var errTooSlow = errors.New("stopped waiting")

// readLikeEval reads in as eval does, and returns the error, if any.
func readLikeEval(in []byte) error {
	r := NewReader(bytes.NewReader(in))
	r.File = "cost"
	var seen Identities
	var staged []any
	slot := akSlot(&staged)
	for {
		staged = staged[:0]
		d, typed, err := r.NextTyped(&seen, slot)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if typed {
			continue
		}
		err = d.ExpandNew(&seen, func(it *Document) error {
			var one []any
			if v := akSlot(&one)(it.Header.APIVersion, it.Header.Kind); v != nil {
				return it.Unmarshal(v)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
}

// costOf reads in and returns the bytes it allocated and the least CPU
// time of tries reads; a read past limit stops and counts as limit.
func costOf(t *testing.T, in []byte, tries int, limit time.Duration) (uint64, time.Duration, error) {
	var alloc uint64
	var best time.Duration
	var err error
	for try := range tries {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := cpuTime()
		done := make(chan error, 1)
		go func() { done <- readLikeEval(in) }()
		select {
		case err = <-done:
		case <-time.After(limit + 10*time.Second):
			// The old code took minutes on some shapes: the test fails
			// without waiting for it. The read goes on in the
			// background until the process ends.
			return 0, 2 * limit, errTooSlow
		}
		took := cpuTime() - start
		runtime.ReadMemStats(&after)
		if try == 0 {
			alloc = after.TotalAlloc - before.TotalAlloc
		}
		if try == 0 || took < best {
			best = took
		}
	}
	return alloc, best, err
}

func TestCost_BoundedBySizeAndDepth(t *testing.T) {
	if raceDetector {
		t.Skip("measures allocation and time, which the race detector's instrumentation changes; .ci/run runs it without -race")
	}
	n := 128 << 10
	if testing.Short() {
		n = 64 << 10
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	for _, shape := range costShapes {
		t.Run(shape.name, func(t *testing.T) {
			small, large := []byte(shape.build(n)), []byte(shape.build(4*n))
			tries := 3
			if testing.Short() {
				tries = 1 // time is not judged
			}
			allocS, timeS, errS := costOf(t, small, tries, time.Minute)
			allocL, timeL, errL := costOf(t, large, tries, time.Duration(timeGrowth*float64(max(timeS, time.Millisecond))))
			t.Logf("%d bytes: %d allocated (%.1f a byte), %v; %d bytes: %d allocated (%.1f a byte), %v; errors %v / %v",
				len(small), allocS, float64(allocS)/float64(len(small)), timeS,
				len(large), allocL, float64(allocL)/float64(len(large)), timeL, errS, errL)
			if (errS == nil) != (errL == nil) {
				t.Errorf("read at one size and refused at the other: %v / %v", errS, errL)
			}
			for _, c := range []struct {
				in    []byte
				alloc uint64
			}{{small, allocS}, {large, allocL}} {
				if float64(c.alloc) > shape.perByte*float64(len(c.in))+shape.fixedAlloc() {
					t.Errorf("%d bytes allocated %d bytes, want at most %.0f a byte and %.0f MiB", len(c.in), c.alloc, shape.perByte, shape.fixedAlloc()/(1<<20))
				}
			}
			if growth := float64(allocL) / float64(max(allocS, 1)); growth > costGrowth && allocL > 4<<20 {
				t.Errorf("allocation grew %.1f times for an input four times larger", growth)
			}
			// Below a millisecond, CPU time is the clock's grain; with
			// -short (as mutation testing runs) time is not judged.
			if growth := float64(timeL) / float64(max(timeS, time.Millisecond)); growth > timeGrowth && !testing.Short() {
				t.Errorf("time grew %.1f times for an input four times larger", growth)
			}
		})
	}
}
