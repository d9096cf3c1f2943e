package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// listCases are Lists whose items are placed in odd ways: nested Lists,
// flow lists, comments between items, items spread over lines, an
// "items" key that is not the List's, and a List whose items the line
// finder cannot place.
var listCases = []string{
	`{"kind":"List","items":[{"kind":"A"},{"kind":"List","items":[{"kind":"B"}]}]}`,
	"{\n \"kind\": \"List\",\n \"metadata\": {\"items\": [1,\n2]},\n \"items\": [\n  {\"kind\": \"A\", \"s\": \"]},{\\\"x\"},\n\n  {\n\"kind\": \"List\", \"items\": [\n {\"kind\": \"B\"},\n {\"kind\": \"C\"}]}\n ]\n}\n",
	"{\"\\u0069tems\": [\n{\"kind\": \"A\"},\n{\"kind\": \"B\"}], \"kind\": \"List\"}",
	"apiVersion: v1\nkind: List\nitems:\n- kind: A\n  metadata: {name: a}\n# between\n\n- kind: B\n  spec:\n    items:\n    - 1\n- kind: List\n  items:\n  - kind: C\n  - kind: D\n    x: [1,\n      2]\n",
	"kind: List\nitems:\n  - kind: A\n  - kind: B\n",
	"kind: List\nitems: [{kind: A}, {kind: B}]\n",
	"kind: List\nitems: [\n  {kind: List,\n   items: [{kind: C}]},\n  {kind: B}\n]\n",
	"kind: List\nitems:\n- kind: List\n  items: [{kind: A},\n    {kind: B}]\n- {kind: List, items: [{kind: C}]}\n",
	"# header\n\nkind: List\nmetadata:\n  annotations:\n    note: 'items: here'\nitems:\n- kind: A\n",
	"kind: A\n---\n\n\nkind: List\nitems:\n- kind: B\n- kind: C\n",
	"kind: List\nitems:\n- kind: List\n  items:\n  - kind: List\n    metadata: {}\n    items:\n    - kind: A\n      x:\n        y: 1\n    - kind: B\n  - kind: C\n\n  - kind: List\n    items: []\n- kind: D\nmetadata: {}\n",
	"base: &l {kind: List, items: [{kind: A}]}\nkind: List\nitems:\n- <<: *l\n- kind: B\n- <<: *l\n",
	"{\"kind\": \"List\", \"items\": [\n {\"items\": [\n  {\"kind\": \"A\"},\n  {\"kind\": \"List\", \"items\": [{\"kind\": \"B\"},\n   {\"kind\": \"C\"}]}],\n  \"kind\": \"List\"},\n {\"kind\": \"D\"}]}\n",
}

// expandLines reads data and returns, for every List item, the line
// Expand gave it and the line the field finder gives items[i] when asked
// from the top of the document (0 when it finds none).
func expandLines(t testing.TB, data string) (got, want []int, items []string) {
	r := NewReader(strings.NewReader(data))
	for {
		d, err := r.Next()
		if errors.Is(err, io.EOF) {
			return got, want, items
		}
		require.NoError(t, err)
		err = d.Expand(func(it *Document) error {
			if it.Item == "" {
				return nil
			}
			top := &Document{source: it.source, sourceLine: it.sourceLine, base: it.base}
			got = append(got, it.Line)
			want = append(want, top.lineOf(it.Item))
			items = append(items, it.Item)
			return nil
		})
		require.NoError(t, err)
	}
}

// Every item is placed on the line the field finder would give it,
// looked up on its own: the one-pass walk changes the cost, not a line.
func TestExpand_ItemLinesAsFieldFinderGivesThem(t *testing.T) {
	for _, c := range listCases {
		got, want, items := expandLines(t, c)
		require.NotEmpty(t, items, c)
		for i := range got {
			if want[i] > 0 {
				assert.Equal(t, want[i], got[i], "%s in %q", items[i], c)
			}
		}
	}
}

func TestExpand_ItemLines(t *testing.T) {
	got, _, items := expandLines(t, listCases[3])
	assert.Equal(t, []string{"items[0]", "items[1]", "items[2].items[0]", "items[2].items[1]"}, items, "a nested List is handed over as its items")
	assert.Equal(t, []int{4, 8, 14, 15}, got)

	got, _, _ = expandLines(t, listCases[1])
	assert.Equal(t, []int{6, 10, 11}, got, "JSON items on the line of their opening brace")

	got, _, _ = expandLines(t, listCases[9])
	assert.Equal(t, []int{7, 8}, got, "lines count from the top of the stream")

	got, _, items = expandLines(t, listCases[10])
	assert.Equal(t, []string{"items[0].items[0].items[0]", "items[0].items[0].items[1]", "items[0].items[1]", "items[1]"}, items, "Lists three deep, in YAML")
	assert.Equal(t, []int{8, 11, 12, 16}, got)

	got, _, items = expandLines(t, listCases[12])
	assert.Equal(t, []string{"items[0].items[0]", "items[0].items[1].items[0]", "items[0].items[1].items[1]", "items[1]"}, items, "Lists three deep, in JSON")
	assert.Equal(t, []int{3, 4, 5, 7}, got)
}

// Lists nest MaxListDepth deep, in JSON read whole or item by item and
// in YAML; one more is refused at the innermost List's items, as a limit.
func TestExpand_ListsNestMaxListDepthDeep(t *testing.T) {
	nest := func(levels int, asJSON bool) string {
		if asJSON {
			return strings.Repeat(`{"kind":"List","items":[`, levels) + `{"kind":"A"}` + strings.Repeat("]}", levels)
		}
		var b strings.Builder
		for l := range levels {
			pad := strings.Repeat("  ", l)
			if l == 0 {
				b.WriteString("kind: List\nitems:\n")
				continue
			}
			b.WriteString(pad[2:] + "- kind: List\n" + pad + "items:\n")
		}
		b.WriteString(strings.Repeat("  ", levels-1) + "- kind: A\n")
		return b.String()
	}
	for _, asJSON := range []bool{true, false} {
		deepest := strings.Repeat("items[0].", MaxListDepth-1) + "items[0]"
		got, err := readItems(nest(MaxListDepth, asJSON), Limits{})
		require.NoError(t, err)
		require.Len(t, got, 1)
		assert.True(t, strings.HasPrefix(got[0], "1 "+deepest+" line "), got[0])

		_, err = readItems(nest(MaxListDepth+1, asJSON), Limits{})
		assert.ErrorIs(t, err, ErrLimit)
		var de *DocumentError
		require.ErrorAs(t, err, &de)
		assert.Equal(t, deepest, de.Item)
		assert.Contains(t, err.Error(), ": items: Lists are nested more than MaxListDepth (32) deep; flatten the input")
		if !asJSON {
			assert.Equal(t, 2*MaxListDepth+2, de.Line, "at the innermost List's items key")
		}
	}
}

// A List nested deep around a large object is read in one walk: what it
// allocates is a few times the object, not the object once per level.
// Before, each level read its items whole again: 32 levels around 1 MiB
// allocated over 32 MiB.
func TestExpand_NestedListsAreNotReadAgainPerLevel(t *testing.T) {
	big := `{"kind":"A","metadata":{"name":"a","annotations":{"x":"` + strings.Repeat("x", 1<<20) + `"}}}`
	for name, in := range map[string]string{
		"JSON":            strings.Repeat(`{"kind":"List","items":[`, MaxListDepth) + big + strings.Repeat("]}", MaxListDepth),
		"JSON, kind last": strings.Repeat(`{"items":[`, MaxListDepth) + big + strings.Repeat(`],"kind":"List"}`, MaxListDepth),
	} {
		t.Run(name, func(t *testing.T) {
			var n int
			alloc := allocated(func() {
				docs, err := readDocs([]byte(in), "deep.json", Limits{})
				require.NoError(t, err)
				n = len(docs)
			})
			require.Equal(t, 1, n)
			assert.Less(t, alloc, uint64(12<<20), "allocated %d bytes for %d levels around 1 MiB", alloc, MaxListDepth)
		})
	}
}

// FuzzListLines: on any input the Reader accepts, every List item is on
// the line the field finder gives it. An empty JSON key is left out: the
// field finder reads {"": {"items": …}} as a path "items" of its own.
func FuzzListLines(f *testing.F) {
	for _, c := range listCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4<<10 || bytes.Contains(data, []byte(`""`)) {
			return
		}
		r := NewReader(bytes.NewReader(data))
		r.Limits = fuzzLimits
		for {
			d, err := r.Next()
			if err != nil {
				return
			}
			_ = d.Expand(func(it *Document) error {
				if it.Item == "" {
					return nil
				}
				top := &Document{source: it.source, sourceLine: it.sourceLine, base: it.base}
				if want := top.lineOf(it.Item); want > 0 && want != it.Line {
					t.Fatalf("%s: line %d, the field finder says %d", it.Item, it.Line, want)
				}
				return nil
			})
		}
	})
}

// listOf writes a List of n small Bindings, as kubectl prints it in JSON
// or YAML.
func listOf(n int, asJSON bool) []byte {
	items := make([]map[string]any, n)
	for i := range items {
		items[i] = map[string]any{
			"apiVersion": "agentkourier.example/v1alpha1", "kind": "Binding",
			"metadata": map[string]any{"namespace": "team", "name": fmt.Sprintf("b%d", i), "uid": fmt.Sprintf("u%d", i)},
			"spec":     map[string]any{"agent": map[string]any{"backendRef": "be"}, "channels": []any{"c1", "c2"}},
		}
	}
	js, _ := json.MarshalIndent(map[string]any{"apiVersion": "v1", "kind": "List", "items": items}, "", "  ")
	if asJSON {
		return js
	}
	var b bytes.Buffer
	b.WriteString("apiVersion: v1\nkind: List\nitems:\n")
	for i := range n {
		fmt.Fprintf(&b, "- apiVersion: agentkourier.example/v1alpha1\n  kind: Binding\n  metadata:\n    namespace: team\n    name: b%d\n    uid: u%d\n  spec:\n    agent: {backendRef: be}\n    channels:\n    - c1\n    - c2\n", i, i)
	}
	return b.Bytes()
}

// Reading a List of 4n items once costs about what reading a List of n
// items four times costs, not four times that: CPU time, the fastest of
// several runs of each, as a ratio, so that other load on a shared
// machine does not decide it. A read of the large List that passes four
// times the small Lists' time is stopped there.
func TestExpand_ListReadInLinearTime(t *testing.T) {
	if raceDetector {
		t.Skip("measures allocation and time, which the race detector's instrumentation changes; .ci/run runs it without -race")
	}
	if testing.Short() {
		t.Skip("times Lists of thousands of items")
	}
	const n = 500
	for _, shape := range []struct {
		name   string
		asJSON bool
	}{{"JSON", true}, {"YAML", false}} {
		t.Run(shape.name, func(t *testing.T) {
			small, large := listOf(n, shape.asJSON), listOf(4*n, shape.asJSON)
			errSlow := errors.New("too slow")
			// The collector's work depends on the heap a read inherits
			// and runs on other threads while this one is timed: it is
			// switched off while timing, and the heap is emptied before
			// each read, so the ratio counts the reading alone.
			defer debug.SetGCPercent(debug.SetGCPercent(-1))
			read := func(data []byte, limit time.Duration) (time.Duration, int) {
				runtime.GC()
				start := cpuTime()
				r := NewReader(bytes.NewReader(data))
				items := 0
				var err error
				for err == nil {
					var d *Document
					if d, err = r.Next(); err != nil {
						break
					}
					// A JSON List comes item by item, a YAML one whole.
					err = d.Expand(func(it *Document) error {
						items++
						if limit > 0 && items%64 == 0 && cpuTime()-start > limit {
							return errSlow
						}
						return nil
					})
				}
				if errors.Is(err, io.EOF) {
					err = nil
				}
				if errors.Is(err, errSlow) {
					return limit, items
				}
				require.NoError(t, err)
				return cpuTime() - start, items
			}
			// best is the least of seven tries. A try that passes limit
			// stops there and counts as limit, so a read that grows
			// faster than the List ends early and reads as a ratio of
			// 4 or more, while one try slowed by a busy machine is only
			// outweighed by the others.
			best := func(data []byte, reps int, limit time.Duration, want int) time.Duration {
				var b time.Duration
				for range 7 {
					var sum time.Duration
					for range reps {
						d, items := read(data, limit)
						if d < limit && items < want {
							t.Fatalf("read %d of %d items", items, want)
						}
						sum += d
					}
					if b == 0 || sum < b {
						b = sum
					}
				}
				return b
			}
			four := best(small, 4, 0, n)
			once := best(large, 1, 4*four, 4*n)
			ratio := float64(once) / float64(four)
			t.Logf("%s List: 4 × %d items %v, 1 × %d items %v, ratio %.2f", shape.name, n, four, 4*n, once, ratio)
			assert.Less(t, ratio, 2.5, "reading grows faster than the List: one List of 4n items took %.1f times four of n", ratio)
		})
	}
}

// cpuTime is the process's CPU time (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
