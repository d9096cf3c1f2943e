package manifest

import (
	"reflect"
	"slices"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// encoding/json matches a key to a struct field by its exact name, and
// failing that by the name with case ignored, so "kind" and "Kind" in one
// mapping both set the field kind and the later wins, which no duplicate
// key scan sees: the two keys differ. Whether two such keys are a repeat
// depends on the type the mapping is read into: two fields of a struct
// are, two entries of a map (labels App and app) are not. So the check
// walks the JSON beside the type, and only for a document whose scan
// found two keys that fold alike (keyScan.folded).

// repeat is one field set by two keys of a mapping: parent is the
// mapping's path as written, field the field's JSON name, and first and
// second the two keys as written, in the order of the JSON.
type repeat struct {
	parent, field, first, second string
}

// RepeatedField reports the first mapping of the JSON text js in which
// two keys set one field of the struct they are read into when js is
// decoded into v with encoding/json, such as "kind" and "Kind", or nil.
// Keys of maps are entries, not fields, so labels App and app are two
// labels. The error names the field's path and both keys; Document's
// Unmarshal makes this check itself, with the lines of both keys, and
// DuplicateKey finds a key given twice as written.
func RepeatedField(js []byte, v any) error {
	if !scanKeys(js).folded {
		return nil
	}
	r := findRepeat(js, reflect.TypeOf(v))
	if r == nil {
		return nil
	}
	return r.error(0, 0)
}

// findRepeat walks js beside type t for the first repeat.
func findRepeat(js []byte, t reflect.Type) *repeat {
	var r *repeat
	walkTyped(js, t, func(path, key, name string, set map[string]string) bool {
		if earlier, dup := set[name]; dup && name != "" {
			r = &repeat{parent: path, field: name, first: earlier, second: key}
		}
		return r != nil
	})
	return r
}

// fieldNamed is the JSON name of the field that key sets, matched as
// encoding/json matches it: exactly, else folded (see foldName). Should
// two fields fold alike, the first in name order is taken.
func fieldNamed(fields map[string]reflect.Type, key string) (string, bool) {
	if _, ok := fields[key]; ok {
		return key, true
	}
	want := foldName(key)
	var names []string
	for name := range fields {
		if foldName(name) == want {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return "", false
	}
	return slices.Min(names), true
}

// foldName is key as encoding/json folds a name before matching it to
// a field (foldHash hashes the same runes).
func foldName(key string) string {
	out := make([]byte, 0, len(key))
	for _, r := range key {
		out = utf8.AppendRune(out, foldRune(r))
	}
	return string(out)
}

// foldRune is r as encoding/json folds it, unicode.ToUpper(unicode.ToLower(r)):
// an ASCII letter upper-cased, and the Kelvin sign folded with k and a
// dotless i with I.
func foldRune(r rune) rune {
	return unicode.ToUpper(unicode.ToLower(r))
}

// error says that r's field is set twice, on the lines first and second
// when they are known (0 when not).
func (r *repeat) error(first, second int) *fieldError {
	// In ASCII, so that a look-alike letter (the Kelvin sign) shows.
	a, b := strconv.QuoteToASCII(r.first), strconv.QuoteToASCII(r.second)
	var where string
	switch {
	case first > 0 && second > 0 && first != second:
		where = "given on line " + strconv.Itoa(first) + " as " + a + " and again on line " + strconv.Itoa(second) + " as " + b
	case first > 0 && first == second:
		where = "given twice on line " + strconv.Itoa(first) + ", as " + a + " and as " + b
	default:
		where = "given twice, as " + a + " and as " + b
	}
	return &fieldError{path: joinKey(r.parent, r.field), line: second,
		problem: where + "; field names are matched without regard to case, so both keys set " + r.field +
			" (a decoder would keep the last and drop the first without a word), so remove one"}
}

// RepeatedField is the package's RepeatedField for d, with the lines of
// both keys, for a caller that reads d into v some other way than with
// Unmarshal (which makes the check itself). The error is a
// *DocumentError.
func (d *Document) RepeatedField(v any) error {
	if fe := d.repeatedField(reflect.TypeOf(v)); fe != nil {
		return d.Fail(fe)
	}
	return nil
}

// repeatedField is the error for two keys of d that set one field of
// type t, with the lines of both; nil when there are none. Only a
// document whose keys fold alike somewhere is walked.
func (d *Document) repeatedField(t reflect.Type) *fieldError {
	if d.keys == keysUnscanned {
		d.keys = keyStateOf(scanKeys(d.JSON).folded)
	}
	if d.keys != keysFolded {
		return nil
	}
	r := findRepeat(d.JSON, t)
	if r == nil {
		return nil
	}
	first, second := d.lineOf(joinKey(r.parent, r.first)), d.lineOf(joinKey(r.parent, r.second))
	if first > second && second > 0 {
		// A YAML document's JSON holds its keys sorted, not as written.
		first, second = second, first
		r.first, r.second = r.second, r.first
	}
	return r.error(first, second)
}
