package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf8"
)

// A List is expanded in one walk of its JSON: each object in a List's
// place (the document, and each element of a List's items) is read key
// by key, and the walk goes down into an items array where it meets
// one, handing each object that has none to the caller as it ends.
// Reading each List whole, its items and then each item again, made a
// List nested n deep cost n times its size (1,000 levels around 1 MiB:
// 1 GiB and 17 s); the walk reads each byte once.
//
// An object that holds an items array is a List. Its kind may come
// after its items (kubectl prints it so, and YAML converted to JSON has
// its keys sorted, items before kind), so its items are handed out as
// they are read and its kind is checked when it ends: a List's kind is
// List, or ends in List without a name; any other is refused there. A
// List holds at most MaxListDepth Lists inside each other.

// MaxListDepth is how deep Lists may be nested: MaxListDepth Lists one
// inside the other are read, and a List inside the innermost is
// refused. Each level adds to the place of every item inside it
// (items[0].items[3]...), so the bound keeps what each item costs to
// name within a constant.
const MaxListDepth = 32

// Expand calls fn with d, or, when d is a List (as `kubectl get -o yaml`
// prints several objects), with each of its items in order, the items of
// nested Lists too. It stops at the first error fn returns; a List that
// cannot be read is a *DocumentError.
func (d *Document) Expand(fn func(*Document) error) error {
	w := expansion{fn: fn, root: d, js: d.JSON}
	t := bytes.TrimSpace(d.source)
	if len(t) > 0 && len(t) == len(d.JSON) && looksJSON(t) {
		w.textLead = 1 + bytes.Count(d.source[:bytes.Index(d.source, t[:1])], []byte("\n"))
	}
	start := skipSpace(d.JSON, 0)
	_, err := w.value(start, d, itemPlace{}, d.depth)
	return err
}

// expansion is one walk of a document's JSON.
type expansion struct {
	fn   func(*Document) error
	root *Document
	js   []byte
	// textLead, when the document's text is its JSON, is the line (from
	// 1, in the text) its first byte is on; 0 for YAML. lines counts the
	// lines of js before offset from.
	textLead    int
	lines, from int
	// yaml places a YAML document's List items.
	yaml *yamlLines
}

// value walks the value at js[s], the document doc, at place in a YAML
// text (see yamlLines), depth Lists deep. It returns the offset past it.
func (w *expansion) value(s int, doc *Document, at itemPlace, depth int) (int, error) {
	js := w.js
	if s >= len(js) || js[s] != '{' {
		end := skipValue(js, s)
		w.setJSON(doc, s, end)
		_, err := doc.Identify()
		return end, doc.Fail(err) // not an object
	}
	// The items array that was walked, from its [ to its ].
	var listed bool
	var open, shut int
	i := skipSpace(js, s+1)
	for i < len(js) && js[i] == '"' {
		keyEnd := skipString(js, i)
		v := skipSpace(js, skipSpace(js, keyEnd)+1) // past the colon
		var next int
		if !listed && v < len(js) && js[v] == '[' && isItems(js[i:keyEnd]) {
			var err error
			if next, err = w.items(v, doc, at, depth); err != nil {
				return 0, err
			}
			listed, open, shut = true, v, next-1
		} else {
			next = skipValue(js, v)
		}
		i = skipSpace(js, next)
		if i < len(js) && js[i] == ',' {
			i = skipSpace(js, i+1)
		}
	}
	end := min(i+1, len(js)) // past the }
	if !listed {
		w.setJSON(doc, s, end)
		h, err := doc.Identify()
		if err != nil {
			return end, doc.Fail(err)
		}
		if h.IsList() {
			// A List without an items array; Items says what is wrong.
			_, err := Items(doc.JSON)
			return end, doc.FailAt("items", err)
		}
		return end, w.fn(doc)
	}
	// The List's own keys, without its items, are read as a document's.
	doc.JSON = append(append([]byte(nil), js[s:open+1]...), js[shut:end]...)
	h, err := doc.Identify()
	if err != nil {
		return end, doc.Fail(err)
	}
	if !h.IsList() {
		doc.Header = nil // the items were not this object's
		return end, doc.FailAt("kind", notAList(h))
	}
	return end, nil
}

// items walks the items array at js[open] of the List doc and returns
// the offset past its ].
func (w *expansion) items(open int, list *Document, at itemPlace, depth int) (int, error) {
	js := w.js
	if depth >= MaxListDepth {
		return 0, list.FailAt("items", &LimitError{Limit: "MaxListDepth", Bytes: MaxListDepth})
	}
	var places *yamlList
	if w.textLead == 0 && list.source != nil && at.off >= 0 {
		if w.yaml == nil {
			w.yaml = newYAMLLines(list.source)
		}
		places = w.yaml.list(at)
	}
	i := skipSpace(js, open+1)
	for n := 0; i < len(js) && js[i] != ']'; n++ {
		item := list.path + "items[" + strconv.Itoa(n) + "]"
		it := &Document{File: list.File, Index: list.Index, Item: item, Line: list.Line,
			source: list.source, sourceLine: list.sourceLine, path: item + ".", base: list.base,
			keys: list.keys}
		place := unplaced
		switch {
		case w.textLead > 0:
			w.lines += bytes.Count(js[w.from:i], []byte("\n"))
			w.from = i
			it.Line = list.sourceLine + w.textLead - 1 + w.lines
		case places != nil:
			if place = places.next(); place != unplaced {
				it.Line = list.sourceLine + place.line
			}
		}
		end, err := w.value(i, it, place, depth+1)
		if err != nil {
			return 0, err
		}
		i = skipSpace(js, end)
		if i < len(js) && js[i] == ',' {
			i = skipSpace(js, i+1)
		}
	}
	return i + 1, nil
}

// setJSON gives doc the JSON js[s:end]: the document's own, or a copy
// that the caller may keep.
func (w *expansion) setJSON(doc *Document, s, end int) {
	if doc != w.root {
		doc.JSON = bytes.Clone(w.js[s:end])
	}
}

// isItems reports whether the quoted key sets a List's items field, as
// encoding/json matches a key to a field: "items", escapes decoded, in
// any case. A key whose first letter cannot fold to I is none, without
// decoding it.
func isItems(quoted []byte) bool {
	if bytes.Equal(quoted, []byte(`"items"`)) {
		return true
	}
	if r, _ := utf8.DecodeRune(quoted[1:]); r != '\\' && foldRune(r) != 'I' {
		return false
	}
	var k string
	return json.Unmarshal(quoted, &k) == nil && foldName(k) == "ITEMS"
}

// notAList is the problem of an object with an items array whose kind
// is not a List's.
func notAList(h *Header) error {
	what := "no kind"
	switch {
	case h.Kind == "":
	case h.Metadata.Name != "":
		what = "kind " + h.Kind + " with a metadata.name"
	default:
		what = "kind " + h.Kind
	}
	return errors.New("kind: an object with an items list is read as a List, but this one has " + what +
		"; a List's kind is List or ends in List, without a name")
}

func skipSpace(js []byte, i int) int {
	for i < len(js) {
		switch js[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the offset just past the string that starts at js[i].
func skipString(js []byte, i int) int {
	for i++; i < len(js); i++ {
		switch js[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(js)
}

// skipValue returns the offset just past the value that starts at js[i];
// the text is valid JSON (the Reader checked it).
func skipValue(js []byte, i int) int {
	if i >= len(js) {
		return i
	}
	switch js[i] {
	case '"':
		return skipString(js, i)
	case '{', '[':
		depth := 0
		for ; i < len(js); i++ {
			switch js[i] {
			case '"':
				i = skipString(js, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return len(js)
	}
	for i < len(js) {
		switch js[i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return i
		}
		i++
	}
	return i
}
