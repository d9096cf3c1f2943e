package manifest

import (
	"bytes"
	"encoding/json"
	"reflect"
	"regexp"
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/internal/decimal"
	"github.com/condengine/condengine/redact"
)

// A value with a decoder of its own (a time, a duration) fails in that
// decoder's words and without its place: encoding/json passes on the
// error as it is. Such a failure is found again here, value by value,
// so the error can name the field, its line and what was wanted.

// badValue is a value of a document that its type's own decoder refused.
type badValue struct {
	path string
	raw  []byte
	typ  reflect.Type
	err  error
}

// problem says, in the words of a manifest, what was wanted and found.
func (b *badValue) problem() string {
	found := describeRaw(b.raw)
	switch b.typ {
	case timeType:
		return "must be a time in RFC 3339 form, such as 2026-11-30T10:00:00Z, not " + found
	case durationType:
		return "must be a duration such as 90s, 5m or 1h30m, not " + found
	}
	return "cannot be " + found + ": " + b.err.Error()
}

var (
	timeType     = reflect.TypeFor[metav1.Time]()
	durationType = reflect.TypeFor[metav1.Duration]()
)

// describeRaw names a JSON value as its author wrote it: a string quoted
// (clipped when long), a number as written, a list or mapping by kind.
func describeRaw(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0:
		return "nothing"
	case raw[0] == '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			if len(s) > 32 {
				return "a string of " + strconv.Itoa(len(s)) + " bytes"
			}
			return strconv.Quote(s)
		}
	case raw[0] == '[':
		return "a list"
	case raw[0] == '{':
		return "a mapping"
	case string(raw) == "true" || string(raw) == "false":
		return string(raw)
	case string(raw) == "null":
		return "null"
	}
	return "the number " + redact.Clip(string(raw), 32)
}

// findBadValue is the first value of js, in document order, that the
// decoder of its type in t (a json.Unmarshaler) refuses, or nil.
func findBadValue(js []byte, t reflect.Type) *badValue {
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	return nextBadValue(dec, js, t, "")
}

func nextBadValue(dec *json.Decoder, js []byte, t reflect.Type, path string) *badValue {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t != nil && t.Kind() != reflect.Interface && reflect.PointerTo(t).Implements(jsonUnmarshaler) {
		start := valueStart(js, int(dec.InputOffset()))
		raw := js[start:skipValue(js, start)]
		if tok, err := dec.Token(); err == nil && (tok == json.Delim('{') || tok == json.Delim('[')) {
			skip(dec)
		}
		u := reflect.New(t).Interface().(json.Unmarshaler)
		if err := u.UnmarshalJSON(raw); err != nil {
			return &badValue{path: path, raw: raw, typ: t, err: err}
		}
		return nil
	}
	tok, err := dec.Token()
	if err != nil {
		return nil
	}
	open := tok == json.Delim('{') || tok == json.Delim('[')
	switch {
	case t == nil || t.Kind() == reflect.Interface:
	case tok == json.Delim('{') && (t.Kind() == reflect.Struct || t.Kind() == reflect.Map):
		var fields map[string]reflect.Type
		if t.Kind() == reflect.Struct {
			fields = jsonFields(t)
		}
		for dec.More() {
			k, _ := dec.Token()
			key, _ := k.(string)
			p := joinKey(path, key)
			ft := fieldType(t, fields, key)
			if b := nextBadValue(dec, js, ft, p); b != nil {
				return b
			}
		}
		_, _ = dec.Token()
		return nil
	case tok == json.Delim('[') && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array):
		for i := 0; dec.More(); i++ {
			if b := nextBadValue(dec, js, t.Elem(), path+"["+strconv.Itoa(i)+"]"); b != nil {
				return b
			}
		}
		_, _ = dec.Token()
		return nil
	}
	if open {
		skip(dec)
	}
	return nil
}

// fieldType is the type the value of key decodes into: a map's element
// type, or the struct field's; nil when there is none.
func fieldType(t reflect.Type, fields map[string]reflect.Type, key string) reflect.Type {
	if t.Kind() == reflect.Map {
		return t.Elem()
	}
	ft, _ := lookupField(fields, key)
	return ft
}

// valueStart is the offset of the value that follows offset i: past
// spaces and the colon or comma before it.
func valueStart(js []byte, i int) int {
	for i < len(js) {
		switch js[i] {
		case ' ', '\t', '\r', '\n', ':', ',':
			i++
		default:
			return i
		}
	}
	return i
}

// numberProblem words a number that an integer field of type t cannot
// hold, written as the author wrote it (clipped): a fraction, a whole
// number beyond the type's range (which YAML would have turned into
// 1e+26 on the way to JSON), or a whole number written with a fraction
// or an exponent (2.0, 1e2), which the JSON decoder refuses for an
// integer as the API server does. The number is never computed: its
// digits and the place of its point tell (internal/decimal), so a
// number of millions of digits or 1e999999999 costs its length.
func numberProblem(t reflect.Type, written string) string {
	var lo, hi string // hi without its sign
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		hi = strconv.FormatUint(1<<(t.Bits()-1)-1, 10)
		lo = "-" + strconv.FormatUint(1<<(t.Bits()-1), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		lo, hi = "0", strconv.FormatUint(1<<t.Bits()-1, 10)
	default:
		return ""
	}
	n, ok := decimal.Parse(written)
	if !ok {
		return ""
	}
	shown := redact.Clip(written, 40)
	switch {
	case !n.Whole():
		return "must be a whole number from " + lo + " to " + hi + ", not " + shown
	case n.Neg && !n.Zero() && lo == "0":
		return "must not be negative, and " + shown + " is"
	case n.Neg && n.Cmp(lo[1:]) > 0:
		return "must be a whole number no smaller than " + lo + ", and " + shown + " is smaller"
	case !n.Neg && n.Cmp(hi) > 0:
		return "must be a whole number no larger than " + hi + ", and " + shown + " is larger"
	}
	// Whole and within range, so written with a fraction or exponent.
	return "must be a whole number written without a fraction or an exponent, such as " + n.Int() + ", not " + shown
}

// writtenNumber is the number at path, whose key is on line (of the
// input), as the author wrote it: from the JSON as it stands, or, for a
// YAML document, from the text after the key on that line, since YAML
// rewrites a number too large for an integer as a float. "" when it
// cannot be found.
func (d *Document) writtenNumber(path string, line int) string {
	n, _ := valueAt(d.JSON, path).(json.Number)
	t := bytes.TrimSpace(d.source)
	if len(t) == 0 || looksJSON(t) || line < d.sourceLine {
		return string(n)
	}
	lines := bytes.Split(d.source, []byte("\n"))
	i := line - d.sourceLine
	segs := splitPath(path)
	if i >= len(lines) || len(segs) == 0 || segs[len(segs)-1].index >= 0 {
		return string(n)
	}
	re := regexp.MustCompile(`(?:^|[\s{,\-])["']?` + regexp.QuoteMeta(segs[len(segs)-1].key) + `["']?\s*:\s*([-+.0-9eE_]+)(?:\s*$|\s+#|\s*[,}\]])`)
	if m := re.FindSubmatch(lines[i]); m != nil {
		return string(m[1])
	}
	return string(n)
}
