package manifest

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// fieldTree is a generated value: a mapping (keys), a list (items), or a
// scalar.
type fieldTree struct {
	keys  []string
	vals  []*fieldTree
	items []*fieldTree
	list  bool
}

// genFieldTree draws a value; its keys are distinct across the whole
// document (the YAML finder looks for a key after its parent's line,
// without telling its depth, so a key written again deeper in an
// earlier branch would be found first: a known limit of reading text).
func genFieldTree(t *rapid.T, depth int, next *int) *fieldTree {
	kind := rapid.IntRange(0, 2).Draw(t, "kind")
	if depth >= 3 {
		kind = 0
	}
	n := &fieldTree{}
	switch kind {
	case 1:
		n.keys = rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"a", "b", "name", "x-y", "k1"}), 1, 3, rapid.ID[string]).Draw(t, "keys")
		for i := range n.keys {
			*next++
			n.keys[i] += strconv.Itoa(*next)
			n.vals = append(n.vals, genFieldTree(t, depth+1, next))
		}
	case 2:
		n.list = true
		for range rapid.IntRange(1, 3).Draw(t, "items") {
			n.items = append(n.items, genFieldTree(t, depth+1, next))
		}
	}
	return n
}

// fieldLines writes a tree as text and records the line (from 1) each
// key, and each list item, is written on, by its path.
type fieldLines struct {
	b     strings.Builder
	line  int
	lines map[string]int
}

func (w *fieldLines) newline() { w.b.WriteString("\n"); w.line++ }

// json writes n as JSON, each key and item on a line of its own, or
// several on one line as the draw says.
func (w *fieldLines) json(t *rapid.T, n *fieldTree, path string) {
	switch {
	case n.keys != nil:
		w.b.WriteString("{")
		for i, k := range n.keys {
			if i > 0 {
				w.b.WriteString(",")
			}
			if rapid.Bool().Draw(t, "break") {
				w.newline()
			}
			p := joinKey(path, k)
			w.lines[p] = w.line
			fmt.Fprintf(&w.b, "%q: ", k)
			w.json(t, n.vals[i], p)
		}
		w.b.WriteString("}")
	case n.list:
		w.b.WriteString("[")
		for i, it := range n.items {
			if i > 0 {
				w.b.WriteString(",")
			}
			if rapid.Bool().Draw(t, "break") {
				w.newline()
			}
			p := path + "[" + strconv.Itoa(i) + "]"
			w.lines[p] = w.line
			w.json(t, it, p)
		}
		w.b.WriteString("]")
	default:
		w.b.WriteString(rapid.SampledFrom([]string{"1", `"s"`, "true", "null", `"a: b"`, `"[x]"`}).Draw(t, "scalar"))
	}
}

// yaml writes n as block YAML at indent col, the mapping's keys or the
// list's dashes on lines of their own (the first of them on the
// current line when inline is set).
func (w *fieldLines) yaml(t *rapid.T, n *fieldTree, path string, col int, inline bool) {
	pad := strings.Repeat(" ", col)
	switch {
	case n.keys != nil:
		for i, k := range n.keys {
			if i > 0 || !inline {
				w.b.WriteString(pad)
			}
			p := joinKey(path, k)
			w.lines[p] = w.line
			w.b.WriteString(k + ":")
			w.yamlValue(t, n.vals[i], p, col)
		}
	case n.list:
		for i, it := range n.items {
			if i > 0 || !inline {
				w.b.WriteString(pad)
			}
			p := path + "[" + strconv.Itoa(i) + "]"
			w.lines[p] = w.line
			if it.keys == nil && !it.list {
				w.b.WriteString("- 1")
				w.newline()
				continue
			}
			if it.list {
				// A list in a list opens on a line of its own: the
				// finder does not read "- - a".
				w.b.WriteString("-")
				w.newline()
				w.yaml(t, it, p, col+2, false)
				continue
			}
			w.b.WriteString("- ")
			w.yaml(t, it, p, col+2, true)
		}
	}
}

func (w *fieldLines) yamlValue(t *rapid.T, n *fieldTree, path string, col int) {
	if n.keys == nil && !n.list {
		w.b.WriteString(" " + rapid.SampledFrom([]string{"1", "s", "'a: b'", "true"}).Draw(t, "scalar"))
		w.newline()
		return
	}
	w.newline()
	if rapid.Bool().Draw(t, "comment") {
		w.b.WriteString(strings.Repeat(" ", col+2) + "# note")
		w.newline()
	}
	indent := col + 2
	if n.list && rapid.Bool().Draw(t, "list at the key's column") {
		indent = col
	}
	w.yaml(t, n, path, indent, false)
}

// The field finder puts every key and list item of a document on the
// line it is written on, in JSON (keys on one line or many) and in block
// YAML (lists at the key's column or indented, comments between), after
// the other documents of the stream.
func TestProperty_LineOfEveryField(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		root := &fieldTree{keys: []string{"kind"}, vals: []*fieldTree{{}}}
		next := 0
		for _, k := range rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"metadata", "spec", "status"}), 1, 3, rapid.ID[string]).Draw(t, "top") {
			root.keys = append(root.keys, k)
			root.vals = append(root.vals, genFieldTree(t, 1, &next))
		}
		w := &fieldLines{line: 3, lines: map[string]int{}}
		w.b.WriteString("kind: Other\n---\n")
		asJSON := rapid.Bool().Draw(t, "JSON")
		if asJSON {
			w.json(t, root, "")
			w.newline()
		} else {
			w.yaml(t, root, "", 0, false)
		}
		r := NewReader(strings.NewReader(w.b.String()))
		if _, err := r.Next(); err != nil {
			t.Fatal(err)
		}
		d, err := r.Next()
		if err != nil {
			t.Fatalf("%s\n%v", w.b.String(), err)
		}
		for path, want := range w.lines {
			if got := d.lineOf(path); got != want {
				t.Fatalf("%s\n%s on line %d, the finder says %d", w.b.String(), path, want, got)
			}
		}
		if got := d.lineOf("nowhere.at.all"); got != 0 {
			t.Fatalf("a path not in the document on line %d", got)
		}
	})
}

// splitPath and joinPath read and write kubectl's field paths.
func TestSplitAndJoinPath(t *testing.T) {
	for p, want := range map[string][]seg{
		"a":            {{key: "a", index: -1}},
		"a.b[2].c":     {{key: "a", index: -1}, {key: "b", index: -1}, {index: 2}, {key: "c", index: -1}},
		"items[0][1]":  {{key: "items", index: -1}, {index: 0}, {index: 1}},
		"[3]":          {{index: 3}},
		"a[x].b":       {{key: "a", index: -1}, {key: "b", index: -1}},
		"":             nil,
		"a..b":         {{key: "a", index: -1}, {key: "b", index: -1}},
		"items[10].a2": {{key: "items", index: -1}, {index: 10}, {key: "a2", index: -1}},
	} {
		got := splitPath(p)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("splitPath(%q) = %v, want %v", p, got, want)
		}
	}
	for _, p := range []string{"a.b[2].c", "items[0][1]", "x", "[3].a"} {
		if got := joinPath(splitPath(p)); got != p {
			t.Errorf("joinPath(splitPath(%q)) = %q", p, got)
		}
	}
}
