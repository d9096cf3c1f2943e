package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	sigsyaml "sigs.k8s.io/yaml"
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
	if fe, _ := jsonDuplicate(js, 1); fe != nil {
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
	index   map[string]int      // the keys once there are many
	folded  map[uint64]struct{} // their foldHash, once there are many
}

// manyKeys is the number of keys past which an object's keys are looked
// up in a map rather than compared one by one.
const manyKeys = 16

// keyScan is what one pass over a JSON text found: the offsets of the
// opening quotes of the earlier and the later copy of the first key an
// object holds twice (dup), and whether some object holds two keys that
// differ only as encoding/json ignores (folded): "kind" and "Kind". Two
// such keys name one field of a struct, but two entries of a map
// (labels App and app), so only the type a document is read into can
// tell a repeat from two keys; folded says when to ask it.
type keyScan struct {
	first, second int
	dup, folded   bool
}

// duplicateJSON finds, in js (valid JSON), the first key that an object
// holds twice. It returns the offsets of the opening quotes of the
// earlier and the later key; ok is false when every object's keys are
// distinct. Keys are compared as the decoder reads them, escapes decoded.
func duplicateJSON(js []byte) (first, second int, ok bool) {
	s := scanKeys(js)
	return s.first, s.second, s.dup
}

// scanKeys walks js (valid JSON) once, stopping at the first key an
// object holds twice, and allocates only for objects with many keys.
func scanKeys(js []byte) keyScan {
	var stack []keyFrame
	depth := 0
	folded := false
	push := func(object bool) {
		if depth == len(stack) {
			stack = append(stack, keyFrame{})
		}
		f := &stack[depth]
		f.object, f.wantKey = object, object
		f.keys, f.offs, f.index, f.folded = f.keys[:0], f.offs[:0], nil, nil
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
				at, dup, fold := f.add(keyText(js[i:end]), i, !folded)
				if dup {
					return keyScan{first: at, second: i, dup: true, folded: folded}
				}
				folded = folded || fold
			}
			i = end
		default:
			i++
		}
	}
	return keyScan{first: -1, second: -1, folded: folded}
}

// add records key, found at offset off; when the object already holds
// it, it returns the offset of the earlier one and true. With fold set,
// it also reports whether the object holds a key that differs from key
// only in case, as encoding/json folds names.
func (f *keyFrame) add(key []byte, off int, fold bool) (at int, dup, folded bool) {
	if f.index != nil {
		if at, dup := f.index[string(key)]; dup {
			return at, true, false
		}
		f.index[string(key)] = off
		if fold {
			h := foldHash(key)
			_, folded = f.folded[h]
			f.folded[h] = struct{}{}
		}
		return 0, false, folded
	}
	for j, k := range f.keys {
		if bytes.Equal(k, key) {
			return f.offs[j], true, false
		}
	}
	if fold && len(key) > 0 {
		c := upperASCII(key[0])
		for _, k := range f.keys {
			// Most keys differ in an ASCII first letter; only the rest
			// are compared whole.
			if len(k) > 0 && (k[0] < utf8.RuneSelf && c < utf8.RuneSelf && upperASCII(k[0]) != c) {
				continue
			}
			if foldEqual(k, key) {
				folded = true
				break
			}
		}
	}
	f.keys = append(f.keys, key)
	f.offs = append(f.offs, off)
	if len(f.keys) > manyKeys {
		f.index = make(map[string]int, 2*manyKeys)
		f.folded = make(map[uint64]struct{}, 2*manyKeys)
		for j, k := range f.keys {
			f.index[string(k)] = f.offs[j]
			f.folded[foldHash(k)] = struct{}{}
		}
	}
	return 0, false, folded
}

// upperASCII is c upper-cased when it is an ASCII lower-case letter.
func upperASCII(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// foldEqual reports whether a and b fold alike (see foldRune). Keys
// of one object mostly differ in their first bytes, so the answer is
// quick.
func foldEqual(a, b []byte) bool {
	for len(a) > 0 && len(b) > 0 {
		ra, na := rune(a[0]), 1
		if ra >= utf8.RuneSelf {
			ra, na = utf8.DecodeRune(a)
		}
		rb, nb := rune(b[0]), 1
		if rb >= utf8.RuneSelf {
			rb, nb = utf8.DecodeRune(b)
		}
		if ra != rb && foldRune(ra) != foldRune(rb) {
			return false
		}
		a, b = a[na:], b[nb:]
	}
	return len(a) == 0 && len(b) == 0
}

// foldHash is an FNV-1a hash of key folded as encoding/json folds a
// name before matching it to a field (see foldRune), without
// allocating. Keys that fold alike hash alike; a collision only costs a
// closer look.
func foldHash(key []byte) uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	var rb [utf8.UTFMax]byte
	for i := 0; i < len(key); {
		if c := key[i]; c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			h = (h ^ uint64(c)) * prime
			i++
			continue
		}
		r, n := utf8.DecodeRune(key[i:])
		i += n
		for _, c := range rb[:utf8.EncodeRune(rb[:], foldRune(r))] {
			h = (h ^ uint64(c)) * prime
		}
	}
	return h
}

// keyText is a quoted JSON key as the decoder reads it: the bytes between
// the quotes, escapes decoded when there are any.
func keyText(quoted []byte) []byte {
	if len(quoted) < 2 || quoted[len(quoted)-1] != '"' {
		return quoted // cut off before its closing quote: the decoder refuses it
	}
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
// folded is keyScan's: whether two keys of an object differ only in case.
func jsonDuplicate(t []byte, first int) (fe *fieldError, folded bool) {
	s := scanKeys(t)
	if !s.dup {
		return nil, s.folded
	}
	a, b := s.first, s.second
	line := func(off int) int { return first + bytes.Count(t[:off], []byte("\n")) }
	col := func(off int) int { return off - bytes.LastIndexByte(t[:off], '\n') }
	path := pathAt(t, b)
	if path == "" {
		path, _ = strconv.Unquote(string(t[b:skipString(t, b)]))
	}
	return duplicateError(path, line(a), line(b), col(a), col(b)), s.folded
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
	keys := yamlKeyFinder(m[2])
	lines := strings.Split(string(text), "\n")
	// The later key is on its value's line or the nearest line above
	// it that holds the key.
	second, col := -1, 0
	var later string
	for i := min(valueLine, len(lines)) - 1; i >= 0; i-- {
		if found := keys.find(lines[i]); found != nil {
			// A flow mapping ({kind: A, kind: B}): two keys of one
			// mapping, told from the keys of the collections nested in
			// it ({b: {b: 1}, b: 2}) by their paths.
			// yes and on are one key (true): compare the paths with a
			// key that stands for both.
			paths := make([]string, len(found))
			for j, k := range found {
				paths[j] = yamlPath(lines, i, k.col, "\x00")
				for h := range j {
					if paths[h] == paths[j] {
						a, b := found[h], k
						return keys.describe(duplicateError(yamlPath(lines, i, b.col, b.text), first+i, first+i, a.col+1, b.col+1), a.text, b.text), true
					}
				}
			}
			second, col, later = i, found[0].col, found[0].text
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
		if found := keys.find(lines[i]); found != nil && found[0].col == col {
			return keys.describe(duplicateError(yamlPath(lines, second, col, later), first+i, first+second), found[0].text, later), true
		}
		if indent < col {
			return nil, false
		}
	}
	return nil, false
}

// yamlUnplacedDuplicate is the error for a key given twice that
// yamlDuplicate could not place in text (a flow mapping over several
// lines, an explicit "? key"), at the line of the later key's value. It
// is nil when text holds a merge key (<<): then the repeat may be a key
// overriding what the merge brought in, which is allowed.
func yamlUnplacedDuplicate(msg string, text []byte, first int) *fieldError {
	m := yamlDupKey.FindStringSubmatch(msg)
	if m == nil || mergeKey.Match(text) {
		return nil
	}
	valueLine, _ := strconv.Atoi(m[1])
	key := m[2]
	if k, err := strconv.Unquote(key); err == nil {
		key = k
	}
	return &fieldError{path: key, line: first + valueLine - 1,
		problem: "given twice in one mapping, the later one here; a mapping holds each key once (a decoder would keep the last and drop the first without a word), so remove one"}
}

// mergeKey is YAML's merge key, "<<:", in block or flow style.
var mergeKey = regexp.MustCompile(`(^|[\s{,\-])<<\s*:`)

// yamlKey is a key found on a line: its column and its text as the
// decoder reads it (quotes removed).
type yamlKey struct {
	col  int
	text string
}

// yamlKeys finds, on one line, the keys that the decoder reads as one
// reported key, left to right. read is how the decoder reads a key that
// is not a string (true, 1, null), and empty for a string.
type yamlKeys struct {
	find func(line string) []yamlKey
	read string
}

// yamlKeyFinder returns the finder for the key a strict decoder reported
// as reported: a string (quoted in the report) is found as written; any
// other key (YAML 1.1 reads y, yes and on as true, 0x1 as 1) is found by
// reading each plain key on the line the way the decoder does.
func yamlKeyFinder(reported string) yamlKeys {
	if k, err := strconv.Unquote(reported); err == nil {
		// A quoted key may have its value right after the colon
		// ({"a":1}); a plain one needs a space or the line's end.
		q := regexp.QuoteMeta(k)
		re := regexp.MustCompile(`(^|[\s{,\-])(?:"` + q + `"\s*:|'` + q + `'\s*:|` + q + `\s*:(?:\s|$))`)
		return yamlKeys{find: func(line string) []yamlKey {
			var out []yamlKey
			for _, loc := range re.FindAllStringSubmatchIndex(line, -1) {
				out = append(out, yamlKey{col: loc[3], text: k})
			}
			return out
		}}
	}
	read := reported
	if read == "<nil>" {
		read = "null"
	}
	return yamlKeys{read: read, find: func(line string) []yamlKey {
		var out []yamlKey
		for _, loc := range plainYAMLKey.FindAllStringSubmatchIndex(line, -1) {
			k := line[loc[4]:loc[5]]
			if js, err := sigsyaml.YAMLToJSON([]byte("[" + k + "]")); err == nil && string(js) == "["+read+"]" {
				out = append(out, yamlKey{col: loc[3], text: k})
			}
		}
		return out
	}}
}

// plainYAMLKey is an unquoted key of a block or flow mapping, in group 2.
var plainYAMLKey = regexp.MustCompile(`(^|[\s{,\-])([^\s:{},\[\]#'"&*!|>%@` + "`" + `][^\s:{},\[\]#]*)\s*:(\s|$)`)

// describe adds to a key given twice that is not a string how the
// decoder reads it, which the text does not show (yes and on are one
// key, true).
func (keys yamlKeys) describe(fe *fieldError, earlier, later string) *fieldError {
	if keys.read != "" {
		fe.problem = strings.Replace(fe.problem, "; ", fmt.Sprintf(", as %q and %q, both read as %s, not as text; ", earlier, later, keys.read), 1)
	}
	return fe
}
