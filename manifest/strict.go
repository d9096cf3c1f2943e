package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/util/yaml"
	sigsyaml "sigs.k8s.io/yaml"
)

// fieldError is a problem with one field: "path: problem", with the
// line of the input the field is on when it could be found.
type fieldError struct {
	path    string
	problem string
	line    int
}

func (e *fieldError) Error() string {
	if e.path == "" {
		return e.problem
	}
	return e.path + ": " + e.problem
}

// Unmarshal decodes d into v as strictly as `kubectl apply
// --validate=strict`: a field v has no place for is an error naming the
// field's full path (spec.agent.backendRf), as is a value of the wrong
// type, and so are two keys that set one field because encoding/json
// ignores their difference in case (kind and Kind); each carries the
// line of the input the field is on. The error is a *DocumentError.
func (d *Document) Unmarshal(v any) error {
	if err := d.RepeatedField(v); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(d.JSON))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Struct == "" || te.Type.Kind() == reflect.String {
		// An error of a value's own decoder (a time, a duration), which
		// says neither where nor what was wanted, or only the field
		// (encoding/json names the field of a type error of such a
		// decoder, which read the value as a string).
		if b := findBadValue(d.JSON, reflect.TypeOf(v)); b != nil && (te == nil || te.Struct == "" || listPlaces.ReplaceAllString(b.path, "") == te.Field) {
			return d.Fail(&fieldError{path: b.path, problem: b.problem(), line: d.lineOf(b.path)})
		}
	}
	switch {
	case te != nil:
		fe := typeError(te, d.JSON)
		fe.line = d.lineOf(fe.path)
		// A number too long for YAML to read as one (millions of digits)
		// comes as a string; as written, it is a number all the same.
		if strings.HasPrefix(te.Value, "number") || te.Value == "string" {
			if w := d.writtenNumber(fe.path, fe.line); w != "" {
				if p := numberProblem(te.Type, w); p != "" {
					fe.problem = p
				}
			}
		}
		return d.Fail(fe)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		path := unknownField(d.JSON, reflect.TypeOf(v))
		if path == "" {
			name, _ := strconv.Unquote(strings.TrimPrefix(err.Error(), "json: unknown field "))
			path = name
		}
		return d.Fail(&fieldError{path: path, problem: "unknown field", line: d.lineOf(path)})
	}
	return d.Fail(FieldError(err))
}

// FieldError rewrites an error straight from encoding/json in the
// "path: problem" form every other problem takes, in the words of the
// manifest rather than of Go. An error already wrapped with context is
// returned as it is.
func FieldError(err error) error {
	switch e := err.(type) {
	case *json.UnmarshalTypeError:
		return typeError(e, nil)
	case *json.SyntaxError:
		return fmt.Errorf("not valid JSON: %v", e)
	}
	return err
}

// typeError says which value was found where another was wanted; with
// the document's JSON it quotes a string that was found.
func typeError(e *json.UnmarshalTypeError, js []byte) *fieldError {
	path := e.Field
	if js != nil && e.Offset > 0 {
		// The offset points into the value, which gives list positions
		// the error's own Field leaves out.
		if p := pathAt(js, int(e.Offset)-1); p != "" {
			path = p
		}
	}
	got := e.Value
	switch {
	case got == "string":
		got = "a string"
		if s, ok := valueAt(js, path).(string); ok {
			got = strconv.Quote(s)
			if len(s) > 32 {
				got = "a string of " + strconv.Itoa(len(s)) + " bytes"
			}
		}
	case got == "array":
		got = "a list"
	case got == "object":
		got = "a mapping"
	case got == "bool":
		got = "true or false"
	case got == "number":
		got = "a number"
		if n, ok := valueAt(js, path).(json.Number); ok && len(n) <= 32 {
			got = "the number " + string(n)
		}
	case strings.HasPrefix(got, "number "):
		got = "the " + got
	}
	return &fieldError{path: path, problem: "must be " + goKind(e.Type) + ", not " + got}
}

// goKind names a Go type the way a manifest's author knows it.
func goKind(t reflect.Type) string {
	if t == nil {
		return "another type"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a non-negative integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "a mapping"
	}
	return "another type"
}

// toJSON converts one document as written into JSON. A document that
// starts like JSON ({" or [) is read as JSON and its errors are JSON's;
// everything else, YAML flow mappings such as {kind: A} included, is
// YAML. Blank, comment-only and null documents give nil JSON. A problem
// comes with its line inside the document when it is known. Text that
// is not UTF-8 is refused rather than replaced, and so is a key given
// twice in one mapping (at is the line of the input text starts on, for
// naming both lines). folded says that some mapping holds two keys that
// differ only in case (see keyScan).
func toJSON(text []byte, at int) (js json.RawMessage, folded bool, line int, err error) {
	t := bytes.TrimSpace(text)
	if len(t) == 0 || commentOnly(t) {
		return nil, false, 0, nil
	}
	lead := bytes.Count(text[:bytes.Index(text, t[:1])], []byte("\n"))
	if !utf8.Valid(t) {
		off := invalidUTF8(t)
		line := lead + 1 + bytes.Count(t[:off], []byte("\n"))
		problem := "not valid UTF-8 (byte 0x" + strconv.FormatUint(uint64(t[off]), 16) + "); save the file as UTF-8"
		if looksJSON(t) {
			if p := pathAt(t, off); p != "" {
				return nil, false, line, &fieldError{path: p, problem: problem}
			}
		}
		return nil, false, line, errors.New(problem)
	}
	if looksJSON(t) {
		if !json.Valid(t) {
			off, err := notJSON(t)
			return nil, false, lead + 1 + bytes.Count(t[:off], []byte("\n")), err
		}
		if bytes.Equal(t, []byte("null")) {
			return nil, false, 0, nil
		}
		fe, folded := jsonDuplicate(t, at+lead)
		if fe != nil {
			return nil, false, fe.line - at + 1, fe
		}
		return bytes.Clone(t), folded, 0, nil
	}
	if l := afterDocumentEnd(text); l > 0 {
		return nil, false, l, errors.New("text after a ... line, which ends a YAML document: the decoder would drop it; start another document with a --- line")
	}
	js, err = yamlToJSON(text, true)
	if err != nil && yamlDupKey.MatchString(yamlMessage(err)) {
		fe, ok := yamlRepeat(text, at)
		switch {
		case fe != nil:
			return nil, false, fe.line - at + 1, fe
		case ok:
			// No key is written twice: one overrides what a merge key
			// (<<) brought in, and the later value wins.
			js, err = yamlToJSON(text, false)
		}
	}
	if err != nil {
		msg := yamlMessage(err)
		if m := yamlLine.FindStringSubmatch(msg); m != nil {
			line, _ = strconv.Atoi(m[1])
			msg = m[2]
		}
		return nil, false, line, errors.New("not valid YAML: " + msg)
	}
	js = bytes.TrimSpace(js)
	if len(js) == 0 || bytes.Equal(js, []byte("null")) {
		return nil, false, 0, nil
	}
	return js, scanKeys(js).folded, 0, nil
}

// notJSON is the error of t, which is not valid JSON, and the offset in
// t it is at, 0 when the decoder does not say.
func notJSON(t []byte) (int, error) {
	var v any
	err := json.Unmarshal(t, &v)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return min(int(se.Offset), len(t)), fmt.Errorf("not valid JSON: %v", se)
	}
	return 0, fmt.Errorf("not valid JSON: %v", err)
}

// yamlMessage is a YAML decoder's error without the prefixes that say
// which library spoke.
func yamlMessage(err error) string {
	msg := strings.TrimPrefix(err.Error(), "error converting YAML to JSON: ")
	return strings.TrimPrefix(msg, "yaml: ")
}

var yamlLine = regexp.MustCompile(`^line (\d+): (.*)$`)

// listPlaces are the list positions of a path, which encoding/json
// leaves out of a field's name.
var listPlaces = regexp.MustCompile(`\[\d+\]`)

// yamlToJSON converts one YAML document; strict, it refuses a key given
// twice in one mapping, otherwise the later key wins (for a document
// whose only repeated keys come from merge keys). apimachinery's ToJSON
// passes through anything that starts like JSON, which a YAML flow
// mapping ({kind: A}) also does, so such a document is decoded as YAML
// and encoded again.
func yamlToJSON(data []byte, strict bool) ([]byte, error) {
	switch {
	case !yaml.IsJSONBuffer(data) && strict:
		return sigsyaml.YAMLToJSONStrict(data)
	case !yaml.IsJSONBuffer(data):
		return yaml.ToJSON(data)
	}
	unmarshal := yaml.Unmarshal
	if strict {
		unmarshal = yaml.UnmarshalStrict
	}
	var v any
	if err := unmarshal(data, &v); err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

// looksJSON: an object whose first key is quoted, an empty object, or
// an array.
func looksJSON(t []byte) bool {
	switch t[0] {
	case '[':
		return true
	case '{':
		rest := bytes.TrimLeft(t[1:], " \t\r\n")
		return len(rest) > 0 && (rest[0] == '"' || rest[0] == '}')
	}
	return bytes.Equal(t, []byte("null"))
}

// invalidUTF8 is the offset of the first byte of b that is not UTF-8,
// len(b) when there is none.
func invalidUTF8(b []byte) int {
	for i := 0; ; {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
}

// lineOf finds the line of the input a field of d is on: the field's
// path, from the top of d (a List item's path is prefixed with its
// place). 0 when the document's text is gone or the field is not found.
func (d *Document) lineOf(path string) int {
	if d.source == nil {
		return 0
	}
	full := d.path + path
	if path == "" {
		full = strings.TrimSuffix(full, ".")
	}
	if d.base != "" {
		// The source is the item alone.
		full = strings.TrimPrefix(strings.TrimPrefix(full+".", d.base), ".")
		full = strings.TrimSuffix(full, ".")
	}
	segs := splitPath(full)
	t := bytes.TrimSpace(d.source)
	if len(t) == 0 {
		return 0
	}
	lead := bytes.Count(d.source[:bytes.Index(d.source, t[:1])], []byte("\n"))
	var rel int
	if looksJSON(t) {
		off := offsetOf(t, segs)
		if off < 0 {
			return 0
		}
		rel = lead + 1 + bytes.Count(t[:off], []byte("\n"))
	} else {
		rel = yamlLineOf(d.source, segs)
		if rel == 0 {
			return 0
		}
	}
	return d.sourceLine + rel - 1
}
