package manifest

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
)

// A key given twice in one mapping is refused rather than read the way
// the JSON and YAML decoders read it (the last one wins): a JSON "kind"
// given twice would turn a Binding into the kind named last, with
// nothing said. The error names the key and the lines of both.

// DuplicateKey reports the first key that an object of the JSON text js
// holds twice, by its path and the lines of both (counted from js's
// first line), or nil when every object's keys are distinct. The
// readers of this package refuse such a document; DuplicateKey is for
// JSON that reaches a program another way, such as a line of a protocol.
func DuplicateKey(js []byte) error {
	if fe := jsonDuplicate(js, 1); fe != nil {
		return fe
	}
	return nil
}

// duplicateError says that the key at path is given twice, on the lines
// first and second of the input; on one line, at the columns (from 1)
// cols when they are known.
func duplicateError(path string, first, second int, cols ...int) *fieldError {
	where := "on line " + strconv.Itoa(first) + " and again on line " + strconv.Itoa(second)
	if first == second {
		where = "twice on line " + strconv.Itoa(first)
		if len(cols) == 2 {
			where += " (columns " + strconv.Itoa(cols[0]) + " and " + strconv.Itoa(cols[1]) + ")"
		}
	}
	return &fieldError{path: path, line: second,
		problem: "given " + where + "; a mapping holds each key once (a decoder would keep the last and drop the first without a word), so remove one"}
}

// keyFrame is one object of the JSON being scanned: its keys so far, as
// written between the quotes, and whether the next string is a key.
type keyFrame struct {
	object  bool
	wantKey bool
	keys    [][]byte
	offs    []int
	index   map[string]int // the keys once there are many
}

// manyKeys is the number of keys past which an object's keys are looked
// up in a map rather than compared one by one.
const manyKeys = 16

// duplicateJSON finds, in js (valid JSON), the first key that an object
// holds twice. It returns the offsets of the opening quotes of the
// earlier and the later key; ok is false when every object's keys are
// distinct. Keys are compared as the decoder reads them, escapes decoded.
// It walks js once and allocates only for objects with many keys.
func duplicateJSON(js []byte) (first, second int, ok bool) {
	var stack []keyFrame
	depth := 0
	push := func(object bool) {
		if depth == len(stack) {
			stack = append(stack, keyFrame{})
		}
		f := &stack[depth]
		f.object, f.wantKey, f.keys, f.offs, f.index = object, object, f.keys[:0], f.offs[:0], nil
		depth++
	}
	for i := 0; i < len(js); {
		switch js[i] {
		case '{', '[':
			push(js[i] == '{')
			i++
		case '}', ']':
			depth = max(depth-1, 0)
			i++
		case ',':
			if depth > 0 && stack[depth-1].object {
				stack[depth-1].wantKey = true
			}
			i++
		case '"':
			end := skipString(js, i)
			if depth > 0 && stack[depth-1].wantKey {
				f := &stack[depth-1]
				f.wantKey = false
				if at, dup := f.add(keyText(js[i:end]), i); dup {
					return at, i, true
				}
			}
			i = end
		default:
			i++
		}
	}
	return -1, -1, false
}

// add records key, found at offset off; when the object already holds
// it, it returns the offset of the earlier one and true.
func (f *keyFrame) add(key []byte, off int) (int, bool) {
	if f.index != nil {
		if at, dup := f.index[string(key)]; dup {
			return at, true
		}
		f.index[string(key)] = off
		return 0, false
	}
	for j, k := range f.keys {
		if bytes.Equal(k, key) {
			return f.offs[j], true
		}
	}
	f.keys = append(f.keys, key)
	f.offs = append(f.offs, off)
	if len(f.keys) > manyKeys {
		f.index = make(map[string]int, 2*manyKeys)
		for j, k := range f.keys {
			f.index[string(k)] = f.offs[j]
		}
	}
	return 0, false
}

// keyText is a quoted JSON key as the decoder reads it: the bytes between
// the quotes, escapes decoded when there are any.
func keyText(quoted []byte) []byte {
	if bytes.IndexByte(quoted, '\\') < 0 {
		return quoted[1 : len(quoted)-1]
	}
	var s string
	if json.Unmarshal(quoted, &s) != nil {
		return quoted
	}
	return []byte(s)
}

// jsonDuplicate is the error for a key given twice in the JSON document
// t, whose first line is line first of the input; nil when there is none.
func jsonDuplicate(t []byte, first int) *fieldError {
	a, b, dup := duplicateJSON(t)
	if !dup {
		return nil
	}
	line := func(off int) int { return first + bytes.Count(t[:off], []byte("\n")) }
	col := func(off int) int { return off - bytes.LastIndexByte(t[:off], '\n') }
	path := pathAt(t, b)
	if path == "" {
		path, _ = strconv.Unquote(string(t[b:skipString(t, b)]))
	}
	return duplicateError(path, line(a), line(b), col(a), col(b))
}

// yamlDupKey is how the YAML decoder, reading strictly, reports a key
// given twice: the line of the later key's value and the key.
var yamlDupKey = regexp.MustCompile(`line (\d+): key (.+) already set in map`)

// yamlDuplicate turns the strict YAML decoder's report of a key given
// twice (msg) into an error naming the key and both its lines, found in
// text, the document as written, whose first line is line first of the
// input. ok is false when msg is not such a report, or when the earlier
// key cannot be found in the text: the decoder says the same of a key
// that overrides one a merge key (<<) brought in, which is not a
// mistake.
func yamlDuplicate(msg string, text []byte, first int) (*fieldError, bool) {
	m := yamlDupKey.FindStringSubmatch(msg)
	if m == nil {
		return nil, false
	}
	valueLine, _ := strconv.Atoi(m[1])
	key := m[2]
	if k, err := strconv.Unquote(key); err == nil {
		key = k
	}
	lines := strings.Split(string(text), "\n")
	re := regexp.MustCompile(`(^|[\s{,\-])["']?` + regexp.QuoteMeta(key) + `["']?\s*:(\s|$)`)
	// The later key is on its value's line or the nearest line above
	// it that holds the key.
	second, col := -1, 0
	for i := min(valueLine, len(lines)) - 1; i >= 0; i-- {
		if locs := re.FindAllStringSubmatchIndex(lines[i], -1); locs != nil {
			if len(locs) > 1 { // a flow mapping: {kind: A, kind: B}
				return duplicateError(key, first+i, first+i, locs[0][3]+1, locs[1][3]+1), true
			}
			second, col = i, locs[0][3]
			break
		}
	}
	if second < 0 {
		return nil, false
	}
	// The earlier key is a sibling: the same column, above it, with
	// nothing less indented between them but the "- " that opens the
	// mapping as a list item.
	for i := second - 1; i >= 0; i-- {
		body := strings.TrimLeft(lines[i], " ")
		if body == "" || body[0] == '#' {
			continue
		}
		indent := len(lines[i]) - len(body)
		if indent > col {
			continue
		}
		loc := re.FindStringSubmatchIndex(lines[i])
		if loc != nil && loc[3] == col {
			return duplicateError(key, first+i, first+second), true
		}
		if indent < col {
			return nil, false
		}
	}
	return nil, false
}
