package manifest

import (
	"bytes"
	"encoding/json"
	"regexp"
)

// A List's items are placed in one walk of the List's text: looking each
// item up from the top of the document (lineOf) costs the document's
// length per item, which made a List of n items cost n² (a kubectl List of
// 2,000 Bindings took over a minute). The walk gives every item the line
// lineOf would give it, and the place where the item's own text starts, so
// that the items of a nested List are placed by a walk of the item alone.

// itemPlace is where a List item's text starts in its document's source:
// for JSON the offset of its first byte in the trimmed source, for YAML
// the offset of the start of its line, that line's number from 0 and the
// column a search for its fields starts at (past the "items:" of a List
// whose items could not be placed, as yamlLineOf carries on from there).
type itemPlace struct {
	off  int
	line int // from 0, relative to the trimmed source for JSON
	col  int
}

// unplaced marks a document whose place in the source is unknown.
var unplaced = itemPlace{off: -1}

// itemPlaces returns the places of the first n items of List d and the
// line of each (as lineOf("items[i]") would give it, 0 when not found),
// walking d's own text once.
func (d *Document) itemPlaces(n int) ([]itemPlace, []int) {
	places := make([]itemPlace, n)
	lines := make([]int, n)
	for i := range places {
		places[i] = unplaced
	}
	if d.source == nil || d.at.off < 0 {
		return places, lines
	}
	t := bytes.TrimSpace(d.source)
	if len(t) == 0 {
		return places, lines
	}
	if looksJSON(t) {
		lead := bytes.Count(d.source[:bytes.Index(d.source, t[:1])], []byte("\n"))
		offs := jsonItemOffsets(t, d.at.off, n)
		line, from := d.at.line, d.at.off
		for i, off := range offs {
			line += bytes.Count(t[from:off], []byte("\n"))
			from = off
			places[i] = itemPlace{off: off, line: line}
			lines[i] = d.sourceLine + lead + line
		}
		return places, lines
	}
	for i, p := range yamlItemPlaces(d.source, d.at, n) {
		places[i] = p
		if p.off >= 0 {
			lines[i] = d.sourceLine + p.line
		}
	}
	return places, lines
}

// jsonItemOffsets returns the offsets of the values of the first "items"
// key of the object that starts at js[start], at most n of them.
func jsonItemOffsets(js []byte, start, n int) []int {
	i := skipSpace(js, start)
	if i >= len(js) || js[i] != '{' {
		return nil
	}
	i = skipSpace(js, i+1)
	for i < len(js) && js[i] == '"' {
		end := skipString(js, i)
		key := js[i:end]
		i = skipSpace(js, end)
		if i >= len(js) || js[i] != ':' {
			return nil
		}
		i = skipSpace(js, i+1)
		if isItemsKey(key) {
			if i >= len(js) || js[i] != '[' {
				return nil
			}
			var offs []int
			i = skipSpace(js, i+1)
			for i < len(js) && js[i] != ']' && len(offs) < n {
				offs = append(offs, i)
				i = skipSpace(js, skipValue(js, i))
				if i < len(js) && js[i] == ',' {
					i = skipSpace(js, i+1)
				}
			}
			return offs
		}
		i = skipSpace(js, skipValue(js, i))
		if i < len(js) && js[i] == ',' {
			i = skipSpace(js, i+1)
		}
	}
	return nil
}

// isItemsKey reports whether the quoted key reads "items", escapes
// decoded, as the JSON walk that lineOf uses compares keys.
func isItemsKey(quoted []byte) bool {
	if bytes.Equal(quoted, []byte(`"items"`)) {
		return true
	}
	if bytes.IndexByte(quoted, '\\') < 0 {
		return false
	}
	var k string
	return json.Unmarshal(quoted, &k) == nil && k == "items"
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

// yamlItemsKey finds an "items" key as yamlLineOf finds a key.
var yamlItemsKey = regexp.MustCompile(`(^|[\s{,\-])["']?items["']?\s*:(\s|$)`)

// yamlItemPlaces places the first n items of the block list under the
// first "items" key at or after at, as yamlLineOf and yamlItem place
// items[i] one at a time: an item that cannot be found (a flow list, a
// list shorter than n) is placed at the line of the key; none is placed
// when there is no key. Lines count from 0.
func yamlItemPlaces(src []byte, at itemPlace, n int) []itemPlace {
	out := make([]itemPlace, n)
	for i := range out {
		out[i] = unplaced
	}
	// Find the key, line by line from at.
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
		return out // a flow list: every item is on the key's line
	}
	// Count the block list's items, as yamlItem does for each of them.
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

// lineAt is the line of src that starts at off, without its newline.
func lineAt(src []byte, off int) []byte {
	if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
		return src[off : off+i]
	}
	return src[off:]
}
