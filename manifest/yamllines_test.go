package manifest

import (
	"bytes"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// oracleYAMLItemPlaces is how a List's YAML items were placed before the
// lines were measured once: n items at a time, each search and count
// from the List's own place. yamlLines must place every item as it did.
func oracleYAMLItemPlaces(src []byte, at itemPlace, n int) []itemPlace {
	out := make([]itemPlace, n)
	for i := range out {
		out[i] = unplaced
	}
	off, line, from := at.off, at.line, at.col
	col := -1
	for off < len(src) {
		text := lineAt(src, off)
		from = min(from, len(text))
		if loc := yamlItemsKey.FindIndex(text[from:]); loc != nil {
			col = from + loc[1]
			break
		}
		off += len(text) + 1
		line++
		from = 0
	}
	if col < 0 {
		return out
	}
	keyAt := itemPlace{off: off, line: line, col: col}
	for i := range out {
		out[i] = keyAt
	}
	keyLine := lineAt(src, off)
	if col < len(keyLine) && bytes.IndexByte(keyLine[col:], '[') >= 0 {
		return out
	}
	indent, count := -1, 0
	for cur := off; cur < len(src) && count < n; line++ {
		text := lineAt(src, cur)
		start := cur
		cur += len(text) + 1
		body := bytes.TrimLeft(text, " ")
		if len(body) == 0 || body[0] == '#' {
			continue
		}
		in := len(text) - len(body)
		if start == off {
			if bytes.HasPrefix(body, []byte("- ")) && col <= in {
				indent = in
			} else {
				continue
			}
		}
		if indent < 0 {
			if body[0] != '-' {
				break
			}
			indent = in
		}
		if in < indent {
			break
		}
		if in == indent && body[0] == '-' {
			out[count] = itemPlace{off: start, line: line}
			count++
		}
	}
	return out
}

// yamlLines places every item where the placement of one List at a time
// placed it, from any place in any text made of the lines a List is
// written with: items keys in every style, dashes at every indent,
// blank and comment lines, flow lists, lists in lists.
func TestProperty_YAMLLinesPlaceItemsAsBefore(t *testing.T) {
	lineKinds := []string{
		"items:", "  items:", "- items:", "  - items:", "items: [a, b]", "items: []", "items:   # c", "'items': x", `"items":`,
		"kind: List", "- kind: A", "  - kind: B", "    x: 1", "", "  ", "# c", "  # c", "- - a", "-", "    - y", "- ", "--- x",
		"items:x", "myitems: 1", "  metadata: {items: 1}", "- {kind: List, items: [{kind: A}]}", "      - deep",
	}
	rapid.Check(t, func(t *rapid.T) {
		lines := rapid.SliceOfN(rapid.SampledFrom(lineKinds), 1, 14).Draw(t, "lines")
		src := []byte(strings.Join(lines, "\n"))
		if rapid.Bool().Draw(t, "final newline") {
			src = append(src, '\n')
		}
		y := newYAMLLines(src)
		line := rapid.IntRange(0, len(y.starts)-1).Draw(t, "line")
		text := y.line(line)
		at := itemPlace{off: int(y.starts[line]), line: line, col: rapid.IntRange(0, len(text)+2).Draw(t, "col")}
		n := rapid.IntRange(0, 6).Draw(t, "n")
		want := oracleYAMLItemPlaces(src, at, n)
		l := y.list(at)
		for i := range n {
			if got := l.next(); got != want[i] {
				t.Fatalf("%q from %+v: item %d at %+v, want %+v (all: %+v)", src, at, i, got, want[i], want)
			}
		}
	})
}

// Several Lists of one text share its measured lines, each from its own
// place, in any order, as a walk of nested Lists asks them.
func TestYAMLLines_ListsShareTheMeasure(t *testing.T) {
	src := []byte("kind: List\nitems:\n- kind: List\n  items:\n  - kind: A\n  - kind: B\n- kind: C\n")
	y := newYAMLLines(src)
	outer := y.list(itemPlace{})
	first := outer.next()
	inner := y.list(first)
	for i, want := range []int{4, 5} {
		if got := inner.next(); got.line != want {
			t.Fatalf("inner item %d on line %d, want %d", i, got.line, want)
		}
	}
	if got := outer.next(); got.line != 6 {
		t.Fatalf("second outer item on line %d", got.line)
	}
	if got := outer.next(); got != outer.keyAt {
		t.Fatalf("past the last item: %+v, want the key's place", got)
	}
	if got := y.list(itemPlace{off: int(y.starts[6]), line: 6}); got.keyAt != unplaced || got.next() != unplaced {
		t.Fatalf("no items key after the last line: %+v", got.keyAt)
	}
}
