package manifest

import (
	"encoding/json"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"
)

// The strict YAML decoder says that a key is given twice, and on which
// line the later value starts, but neither where the earlier key is nor
// the path of the mapping; and it says the same of a key that overrides
// what a merge key (<<) brought in, which is no mistake. So when it
// refuses a document for a key given twice, the document is parsed
// again into a tree of nodes, which knows every key's line and column
// and which keys were written in each mapping: a key written twice in
// one mapping is the error, with the path from the document's top and
// both places; a document in which none is written twice was refused
// for an override only, and is read with the later value winning.

// yamlRepeat is the error for the first key, in document order, written
// twice in one mapping of the YAML document text, whose first line is
// line first of the input; nil when every mapping's keys are distinct
// as written. ok is false when the text cannot be parsed into nodes.
func yamlRepeat(text []byte, first int) (fe *fieldError, ok bool) {
	var doc yaml.Node
	if yaml.Unmarshal(text, &doc) != nil {
		return nil, false
	}
	w := repeatWalk{first: first}
	w.node(&doc, "")
	return w.found, true
}

type repeatWalk struct {
	first int
	found *fieldError
}

// node looks for a key written twice in n and below it; path is n's.
func (w *repeatWalk) node(n *yaml.Node, path string) {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			w.node(c, path)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			w.node(c, path+"["+strconv.Itoa(i)+"]")
		}
	case yaml.MappingNode:
		type key struct {
			node    *yaml.Node
			reading string
		}
		var keys []key
		for i := 0; i+1 < len(n.Content) && w.found == nil; i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			reading, ok := keyReading(k)
			if !ok {
				continue // a merge key, or one no JSON key stands for
			}
			at := joinKey(path, k.Value)
			for _, earlier := range keys {
				if earlier.reading == reading {
					w.found = w.twice(at, earlier.node, k, reading)
					return
				}
			}
			keys = append(keys, key{k, reading})
			w.node(v, at)
		}
	}
}

// twice is the error for the key at path written as a and again as b.
func (w *repeatWalk) twice(path string, a, b *yaml.Node, reading string) *fieldError {
	fe := duplicateError(path, w.first+a.Line-1, w.first+b.Line-1, a.Column, b.Column)
	if a.Value != reading || b.Value != reading {
		// Keys YAML 1.1 reads as a boolean, a number or null: say so,
		// since the text does not show that yes and on are one key.
		fe.problem = strings.Replace(fe.problem, "; ", ", as "+strconv.Quote(a.Value)+" and "+strconv.Quote(b.Value)+", both read as "+reading+", not as text; ", 1)
	}
	return fe
}

// keyReading is the JSON key the YAML 1.1 decoder of the full reading
// makes of the key node k: its text, or for a plain word that decoder
// reads as a boolean, a number or null (yes, on, 0x1, ~), that value as
// text. ok is false for a merge key and for a key that is a collection.
func keyReading(k *yaml.Node) (string, bool) {
	if k.Kind == yaml.AliasNode && k.Alias != nil {
		k = k.Alias
	}
	if k.Kind != yaml.ScalarNode || k.Tag == "!!merge" {
		return "", false
	}
	if k.Style != 0 || !specialWord(k.Value) {
		return k.Value, true
	}
	js, err := sigsyaml.YAMLToJSON([]byte(k.Value + ": 0"))
	var m map[string]json.RawMessage
	if err != nil || json.Unmarshal(js, &m) != nil || len(m) != 1 {
		return k.Value, true
	}
	for read := range m {
		return read, true
	}
	return k.Value, true
}

// specialWord reports whether YAML 1.1 may read the plain word s as
// something other than text: a boolean, null, or a number.
func specialWord(s string) bool {
	if s == "" {
		return true
	}
	switch c := s[0]; {
	case c >= '0' && c <= '9', c == '+', c == '-', c == '.', c == '~':
		return true
	}
	switch strings.ToLower(s) {
	case "y", "yes", "n", "no", "on", "off", "true", "false", "null":
		return true
	}
	return false
}
