package manifest

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// yamlNode is a generated YAML value: a mapping (keys), a list (items)
// or, with neither, a scalar.
type yamlNode struct {
	keys  []string
	vals  []*yamlNode
	items []*yamlNode
	list  bool
}

func genYAML(t *rapid.T, depth int) *yamlNode {
	kind := rapid.IntRange(0, 2).Draw(t, "kind")
	if depth >= 3 {
		kind = 0
	}
	n := &yamlNode{}
	switch kind {
	case 1:
		keys := rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"a", "b", "kind", "name", "spec", "on"}), 1, 3, rapid.ID[string]).Draw(t, "keys")
		for _, k := range keys {
			n.keys = append(n.keys, k)
			n.vals = append(n.vals, genYAML(t, depth+1))
		}
	case 2:
		n.list = true
		for range rapid.IntRange(1, 3).Draw(t, "items") {
			n.items = append(n.items, genYAML(t, depth+1))
		}
	}
	return n
}

// mappings lists the paths of n's mappings, in document order.
func (n *yamlNode) mappings(path string, out *[]string) {
	switch {
	case n.keys != nil:
		*out = append(*out, path)
		for i, k := range n.keys {
			n.vals[i].mappings(joinKey(path, k), out)
		}
	case n.list:
		for i, it := range n.items {
			it.mappings(path+"["+strconv.Itoa(i)+"]", out)
		}
	}
}

// render writes n in block style at indent col; the mapping at path dup
// gets its first key again at its end. first says the caller already
// wrote the text left of col on this line ("- ").
type yamlRender struct {
	t       *rapid.T
	b       strings.Builder
	dup     string
	dupFlow bool // the mapping at dup was written in flow style
}

// flow writes n in flow style ({a: 1, b: [1, {c: 1}]}) on the current
// line.
func (r *yamlRender) flow(n *yamlNode, path string) {
	switch {
	case n.keys != nil:
		r.b.WriteString("{")
		for i, k := range n.keys {
			if i > 0 {
				r.b.WriteString(", ")
			}
			r.b.WriteString(k + ": ")
			r.flow(n.vals[i], joinKey(path, k))
		}
		if path == r.dup {
			r.b.WriteString(", " + n.keys[0] + ": 1")
			r.dupFlow = true
		}
		r.b.WriteString("}")
	case n.list:
		r.b.WriteString("[")
		for i, it := range n.items {
			if i > 0 {
				r.b.WriteString(", ")
			}
			r.flow(it, path+"["+strconv.Itoa(i)+"]")
		}
		r.b.WriteString("]")
	default:
		r.b.WriteString("1")
	}
}

func (r *yamlRender) node(n *yamlNode, path string, col int, first bool) {
	pad := func(c int) string { return strings.Repeat(" ", c) }
	switch {
	case n.keys != nil:
		for i, k := range n.keys {
			if i > 0 || !first {
				r.b.WriteString(pad(col))
			}
			r.b.WriteString(k + ":")
			r.value(n.vals[i], joinKey(path, k), col)
		}
		if path == r.dup {
			r.b.WriteString(pad(col) + n.keys[0] + ": 1\n")
		}
	case n.list:
		for i, it := range n.items {
			if i > 0 || !first {
				r.b.WriteString(pad(col))
			}
			p := path + "[" + strconv.Itoa(i) + "]"
			if it.keys == nil && !it.list {
				r.b.WriteString("- 1\n")
				continue
			}
			if rapid.IntRange(0, 3).Draw(r.t, "flowItem") == 0 {
				r.b.WriteString("- ")
				r.flow(it, p)
				r.b.WriteString("\n")
				continue
			}
			if rapid.Bool().Draw(r.t, "compact") {
				r.b.WriteString("- ")
				r.node(it, p, col+2, true)
				continue
			}
			r.b.WriteString("-\n")
			r.node(it, p, col+2, false)
		}
	default:
		r.b.WriteString("1\n")
	}
}

// value writes the value of a key written at column col.
func (r *yamlRender) value(n *yamlNode, path string, col int) {
	if (n.keys != nil || n.list) && rapid.IntRange(0, 3).Draw(r.t, "flowValue") == 0 {
		r.b.WriteString(" ")
		r.flow(n, path)
		r.b.WriteString("\n")
		return
	}
	switch {
	case n.keys != nil:
		r.b.WriteString("\n")
		r.node(n, path, col+2, false)
	case n.list:
		r.b.WriteString("\n")
		r.node(n, path, col+rapid.SampledFrom([]int{0, 2}).Draw(r.t, "listIndent"), false)
	default:
		r.b.WriteString(" 1\n")
	}
}

// A key given twice in a YAML document is named by its full path, as a
// JSON one is, whatever the nesting of mappings and lists, however the
// list items are written, and in flow collections ({a: [1, {b: 1}]})
// opened on the key's line.
func TestProperty_YAMLRepeatedKeyNamesItsFullPath(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		root := &yamlNode{keys: []string{"kind"}, vals: []*yamlNode{{}}}
		for _, k := range rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"a", "b", "name", "spec"}), 0, 3, rapid.ID[string]).Draw(t, "top") {
			root.keys = append(root.keys, k)
			root.vals = append(root.vals, genYAML(t, 1))
		}
		var maps []string
		root.mappings("", &maps)
		r := &yamlRender{t: t, dup: rapid.SampledFrom(maps).Draw(t, "dup")}
		r.node(root, "", 0, false)
		var key string
		var find func(n *yamlNode, path string)
		find = func(n *yamlNode, path string) {
			if path == r.dup && n.keys != nil {
				key = n.keys[0]
			}
			for i, k := range n.keys {
				find(n.vals[i], joinKey(path, k))
			}
			for i, it := range n.items {
				find(it, path+"["+strconv.Itoa(i)+"]")
			}
		}
		find(root, "")
		_, err := Split([]byte(r.b.String()))
		require.Error(t, err, r.b.String())
		given := ": given on line "
		if r.dupFlow {
			given = ": given twice on line "
		}
		require.Contains(t, err.Error(), ": "+joinKey(r.dup, key)+given, r.b.String())
	})
}
