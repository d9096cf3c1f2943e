package manifest

import (
	"bytes"
	"encoding/json"
	"hash/maphash"
	"regexp"
	"strconv"
	"unicode/utf8"
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

// keyFrame is one value of the JSON being scanned, an object or a list:
// whether the next string is a key, and where its keys so far start in
// the scan's keys.
type keyFrame struct {
	object  bool
	wantKey bool
	start   int
	// Once there are many keys, they are looked up by hash instead: the
	// offset of the first key of each hash of the text, and each
	// foldHash. The keys are then no longer kept in the scan's keys.
	index  map[uint64]int
	spill  map[string]int // keys whose hash an earlier key has
	folded map[uint64]struct{}
}

// scannedKey is a key as written between the quotes, and the offset of
// its opening quote.
type scannedKey struct {
	text []byte
	off  int
}

// manyKeys is the number of keys past which an object's keys are looked
// up in a map rather than compared one by one.
const manyKeys = 16

// maxNesting is how deep the scan follows objects and lists: as deep as
// encoding/json reads, which refuses anything deeper. So the scan holds
// at most that many frames, however deep a text that is no JSON opens.
const maxNesting = 10000

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
// object holds twice. The keys of the open objects share one slice, so
// it allocates little but for objects with many keys.
func scanKeys(js []byte) keyScan {
	var frames []keyFrame
	var keys []scannedKey
	folded := false
	for i := 0; i < len(js); {
		switch js[i] {
		case '{', '[':
			if len(frames) == maxNesting {
				return keyScan{folded: folded}
			}
			frames = append(frames, keyFrame{object: js[i] == '{', wantKey: js[i] == '{', start: len(keys)})
			i++
		case '}', ']':
			if n := len(frames); n > 0 {
				keys = keys[:frames[n-1].start]
				frames = frames[:n-1]
			}
			i++
		case ',':
			if n := len(frames); n > 0 && frames[n-1].object {
				frames[n-1].wantKey = true
			}
			i++
		case '"':
			end := skipString(js, i)
			if n := len(frames); n > 0 && frames[n-1].wantKey {
				f := &frames[n-1]
				f.wantKey = false
				k := scannedKey{text: keyText(js[i:end]), off: i}
				at, dup, fold := f.add(js, keys[f.start:], k, !folded)
				if dup {
					return keyScan{first: at, second: i, dup: true, folded: folded}
				}
				if f.index == nil {
					keys = append(keys, k)
				}
				folded = folded || fold
			}
			i = end
		default:
			i++
		}
	}
	return keyScan{folded: folded}
}

// add looks up k among the object's keys so far, before it is added to
// them: when the object already holds it, it returns the offset of the
// earlier one and true. With fold set, it also reports whether the
// object holds a key that differs from k only in case, as encoding/json
// folds names. js is the text the keys were read from.
func (f *keyFrame) add(js []byte, keys []scannedKey, k scannedKey, fold bool) (at int, dup, folded bool) {
	key := k.text
	if f.index != nil {
		if at, dup := f.remember(js, k); dup {
			return at, true, false
		}
		if fold {
			h := foldHash(key)
			_, folded = f.folded[h]
			f.folded[h] = struct{}{}
		}
		return 0, false, folded
	}
	for _, e := range keys {
		if bytes.Equal(e.text, key) {
			return e.off, true, false
		}
	}
	if fold {
		for _, e := range keys {
			if foldEqual(e.text, key) {
				folded = true
				break
			}
		}
	}
	if len(keys) == manyKeys {
		f.index = map[uint64]int{}
		f.folded = map[uint64]struct{}{}
		for _, e := range append(keys, k) {
			f.remember(js, e)
			f.folded[foldHash(e.text)] = struct{}{}
		}
	}
	return 0, false, folded
}

// remember records k in an object of many keys, unless the object holds
// it already: then it returns the offset of the earlier one and true.
func (f *keyFrame) remember(js []byte, k scannedKey) (int, bool) {
	h := keyHash(k.text)
	switch at, ok := f.index[h]; {
	case !ok:
		f.index[h] = k.off
	case bytes.Equal(keyText(js[at:skipString(js, at)]), k.text):
		return at, true
	default:
		// Another text of the same hash (which an input can be made to
		// hold): such keys are kept by their text.
		if at, ok := f.spill[string(k.text)]; ok {
			return at, true
		}
		if f.spill == nil {
			f.spill = map[string]int{}
		}
		f.spill[string(k.text)] = k.off
	}
	return 0, false
}

// keyHash is the hash an object of many keys looks its keys up by; a
// test makes every key collide.
var keyHash = func(key []byte) uint64 { return maphash.Bytes(hashSeed, key) }

// hashSeed seeds the scan's hashes, one seed for the process.
var hashSeed = maphash.MakeSeed()

// foldEqual reports whether a and b fold alike (see foldRune). Keys
// of one object mostly differ in their first runes, so the answer is
// quick.
func foldEqual(a, b []byte) bool {
	for {
		if len(a) == 0 || len(b) == 0 {
			return len(a) == len(b)
		}
		ra, na := utf8.DecodeRune(a)
		rb, nb := utf8.DecodeRune(b)
		if ra != rb && foldRune(ra) != foldRune(rb) {
			return false
		}
		a, b = a[na:], b[nb:]
	}
}

// foldHash is a hash of key folded as encoding/json folds a name before
// matching it to a field (see foldRune), without allocating. Keys that
// fold alike hash alike; a collision only costs a closer look.
func foldHash(key []byte) uint64 {
	var h maphash.Hash
	h.SetSeed(hashSeed)
	var rb [utf8.UTFMax]byte
	for len(key) > 0 {
		r, n := utf8.DecodeRune(key)
		key = key[n:]
		_, _ = h.Write(rb[:utf8.EncodeRune(rb[:], foldRune(r))])
	}
	return h.Sum64()
}

// keyText is a quoted JSON key as the decoder reads it: the bytes between
// the quotes, escapes decoded when there are any.
func keyText(quoted []byte) []byte {
	if len(quoted) < 2 || quoted[len(quoted)-1] != '"' {
		return quoted // cut off before its closing quote: the decoder refuses it
	}
	if !bytes.ContainsRune(quoted, '\\') {
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
	return duplicateError(pathAt(t, b), line(a), line(b), col(a), col(b)), s.folded
}

// yamlDupKey is how the YAML decoder, reading strictly, reports a key
// given twice.
var yamlDupKey = regexp.MustCompile(`line \d+: key .+ already set in map`)
