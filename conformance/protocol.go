package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/condengine/condengine/manifest"
	"github.com/condengine/condengine/scenario"
)

// Answer is one answer line of the conform protocol (docs/conform.md):
// the id of the request it answers and either the objects whose status
// the implementation writes, each with its conditions and other status
// fields, or an error saying why it refuses the request.
type Answer struct {
	// ID echoes the request's id, so an answer is matched to its request
	// and never to the next one.
	ID *int64 `json:"id,omitempty"`
	// Objects is the answer proper; nil in a refusal.
	Objects []Object `json:"objects,omitempty"`
	// Error, when set, refuses the request: conform reports it as a
	// refusal, not as a broken process.
	Error *string `json:"error,omitempty"`
}

// Capabilities is the line an implementation may print before its first
// answer, {"capabilities": [KEY…]}: the decision keys (DecisionKeys) its
// answers carry and conform compares.
type Capabilities struct {
	Capabilities []string `json:"capabilities"`
}

// Decision keys an answer's object may carry: whether the host writes
// the status now, whether it removes its finalizer, and the instant it
// retries a write it holds back. Each is compared only when the
// implementation declares it.
const (
	KeyWrite           = "write"
	KeyRemoveFinalizer = "removeFinalizer"
	KeyRetryAt         = "retryAt"
)

// DecisionKeys lists the decision keys in the order the documentation
// gives them.
func DecisionKeys() []string { return []string{KeyWrite, KeyRemoveFinalizer, KeyRetryAt} }

// MaxLineBytes bounds one line of the protocol in either direction.
const MaxLineBytes = 16 << 20

// Refusal is an implementation's error answer: it read the request and
// says it cannot answer it. Conform reports it as a disagreement (the
// engine did answer) and shrinks it like one.
type Refusal struct{ Message string }

func (r *Refusal) Error() string { return "the implementation refused the request: " + r.Message }

// EncodeAnswer writes objs as one answer line without an id, without the
// newline.
func EncodeAnswer(objs []Object) ([]byte, error) {
	if objs == nil {
		objs = []Object{}
	}
	return marshal(struct {
		Objects []Object `json:"objects"`
	}{objs})
}

// EncodeReply writes the answer to request id: objs, or, when refuse is
// not nil, the error answer carrying its text.
func EncodeReply(id int64, objs []Object, refuse error) ([]byte, error) {
	if refuse != nil {
		return marshal(struct {
			ID    int64  `json:"id"`
			Error string `json:"error"`
		}{id, refuse.Error()})
	}
	if objs == nil {
		objs = []Object{}
	}
	return marshal(struct {
		ID      int64    `json:"id"`
		Objects []Object `json:"objects"`
	}{id, objs})
}

// DecodeAnswer reads one answer line strictly, its id optional: a single
// JSON object with the key "objects" (a list, possibly empty), no other
// keys at any level, every object with a kind and a name and every
// condition with a type. An error answer is returned as a *Refusal.
func DecodeAnswer(line []byte) ([]Object, error) {
	a, err := DecodeReply(line)
	if err != nil {
		return nil, err
	}
	if a.Error != nil {
		return nil, &Refusal{Message: *a.Error}
	}
	return a.Objects, nil
}

// DecodeReply reads one answer line strictly and returns it whole: its
// id, and its objects or its error. A line that is not an answer is an
// error that quotes the start of the line and says what a common mistake
// looks like (a pretty-printed answer, a log line on standard output).
func DecodeReply(line []byte) (Answer, error) {
	a, err := decodeReply(line)
	if err != nil {
		return Answer{}, fmt.Errorf("not an answer: %w%s", err, lineHint(line))
	}
	return a, nil
}

func decodeReply(line []byte) (Answer, error) {
	if !utf8.Valid(line) {
		return Answer{}, errors.New("the line is not valid UTF-8")
	}
	if t := bytes.TrimSpace(line); bytes.Equal(t, []byte("null")) {
		return Answer{}, errors.New("the answer is null, not an object with \"objects\" or \"error\"")
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	var raw struct {
		ID      *json.Number       `json:"id"`
		Objects *[]json.RawMessage `json:"objects"`
		Error   *string            `json:"error"`
	}
	if err := dec.Decode(&raw); err != nil {
		return Answer{}, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Answer{}, errors.New("more than one JSON value on the line")
	}
	if err := manifest.RepeatedField(line, &raw); err != nil {
		return Answer{}, err
	}
	var a Answer
	if raw.ID != nil {
		id, err := raw.ID.Int64()
		if err != nil {
			return Answer{}, fmt.Errorf("id %s is not an integer", raw.ID.String())
		}
		a.ID = &id
	}
	switch {
	case raw.Error != nil && raw.Objects != nil:
		return Answer{}, errors.New(`an answer has "objects" or "error", not both`)
	case raw.Error != nil:
		a.Error = raw.Error
		return a, nil
	case raw.Objects == nil:
		return Answer{}, errors.New(`the key "objects" is missing or null`)
	}
	a.Objects = make([]Object, 0, len(*raw.Objects))
	for i, r := range *raw.Objects {
		o, err := decodeObject(r)
		if err != nil {
			return Answer{}, fmt.Errorf("objects[%d]: %w", i, err)
		}
		if o.Kind == "" || o.Name == "" {
			return Answer{}, fmt.Errorf("objects[%d]: kind and name are required", i)
		}
		for j, c := range o.Conditions {
			if c.Type == "" {
				return Answer{}, fmt.Errorf("objects[%d] (%s).conditions[%d]: type is required", i, o.ID(), j)
			}
		}
		if st := bytes.TrimSpace(o.Status); len(st) > 0 && st[0] != '{' && !bytes.Equal(st, []byte("null")) {
			return Answer{}, fmt.Errorf("objects[%d] (%s).status: not a JSON object", i, o.ID())
		}
		a.Objects = append(a.Objects, o)
	}
	return a, nil
}

// conditionKeys are the keys of a metav1.Condition the API server
// requires (observedGeneration is optional).
var conditionKeys = []string{"type", "status", "lastTransitionTime", "reason", "message"}

// decodeObject reads one object of an answer strictly and notes the
// required condition keys it leaves out (Object.Absent).
func decodeObject(r json.RawMessage) (Object, error) {
	dec := json.NewDecoder(bytes.NewReader(r))
	dec.DisallowUnknownFields()
	var o Object
	if err := dec.Decode(&o); err != nil {
		return Object{}, err
	}
	if err := manifest.RepeatedField(r, &o); err != nil {
		return Object{}, err
	}
	var shape struct {
		Conditions []map[string]json.RawMessage `json:"conditions"`
	}
	if err := json.Unmarshal(r, &shape); err != nil {
		return Object{}, err
	}
	for i, c := range shape.Conditions {
		for _, k := range conditionKeys {
			if v, ok := c[k]; !ok || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
				o.Absent = append(o.Absent, fmt.Sprintf("conditions[%d].%s", i, k))
			}
		}
	}
	return o, nil
}

// lineHint quotes the start of a line that is not an answer and, when it
// looks like a common mistake, says which.
func lineHint(line []byte) string {
	t := bytes.TrimSpace(line)
	var hint string
	switch {
	case len(t) == 0:
		hint = "an empty line; write nothing but answers to standard output"
	case t[0] == '{' && !json.Valid(t) && !bytes.ContainsAny(t, "}"):
		hint = "an answer is one line of JSON: was it pretty-printed over several lines?"
	case t[0] != '{':
		hint = "every line on standard output is read as an answer: write logs to standard error"
	}
	out := "; the line begins " + QuoteCut(line, 120)
	if hint != "" {
		out += " (" + hint + ")"
	}
	return out
}

// QuoteCut quotes at most max bytes of b, cut on a character boundary
// and marked "…" when cut, for a report.
func QuoteCut(b []byte, max int) string {
	cut := len(b) > max
	if cut {
		b = b[:max]
		for len(b) > 0 && !utf8.Valid(b) {
			b = b[:len(b)-1]
		}
	}
	s := quote(strings.ToValidUTF8(string(b), "\uFFFD"))
	if cut {
		s += "…"
	}
	return s
}

// CheckLine checks one line against the protocol's limits: at most
// MaxLineBytes, valid UTF-8, exactly one JSON object. The error says
// which limit was broken.
func CheckLine(line []byte) error {
	if len(line) > MaxLineBytes {
		return fmt.Errorf("the line is %d bytes, over the protocol's limit of %d (16 MiB)", len(line), MaxLineBytes)
	}
	if !utf8.Valid(line) {
		at := 0
		for at < len(line) {
			r, n := utf8.DecodeRune(line[at:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			at += n
		}
		return fmt.Errorf("the line is not valid UTF-8 (byte %d)", at+1)
	}
	if json.Valid(line) {
		// One JSON value: it only remains to see that it is an object.
		// A valid line is checked without a copy; a broken one is read
		// again below, to say what is wrong with it.
		if t := bytes.TrimLeft(line, jsonSpace); len(t) > 0 && t[0] == '{' {
			return nil
		}
		return errors.New("the line is not one JSON object: it does not begin with {")
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("the line is not one JSON object: %v", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return errors.New("the line is not one JSON object: it does not begin with {")
	}
	dec = json.NewDecoder(bytes.NewReader(line))
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("the line is not one JSON object: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("the line holds more than one JSON value: exactly one object per line")
	}
	return nil
}

// EncodeRequest writes f as the request line with the given id: a
// scenario as JSON, the expect key left out and "id" added, without the
// newline.
func EncodeRequest(id int64, f *scenario.File) ([]byte, error) {
	req, err := Request(f)
	if err != nil {
		return nil, err
	}
	idText, _ := json.Marshal(id)
	if bytes.Equal(req, []byte("{}")) {
		return append(append([]byte(`{"id":`), idText...), '}'), nil
	}
	return append(append([]byte(`{"id":`), idText...), append([]byte{','}, req[1:]...)...), nil
}

// ParseRequest reads one request line: a scenario of system as JSON, its
// id dropped. A request carries no expectations; one that does is
// refused, so the two sides cannot mistake a check for a question.
func ParseRequest(line []byte, system string) (*scenario.File, error) {
	_, f, err := DecodeRequest(line, system)
	return f, err
}

// DecodeRequest reads one request line and returns its id (nil when it
// has none) and its scenario. The line is first checked against the
// protocol's limits (CheckLine). Besides the scenario's own reading, it
// copies the line once, to leave the id out.
func DecodeRequest(line []byte, system string) (*int64, *scenario.File, error) {
	if err := CheckLine(line); err != nil {
		return nil, nil, err
	}
	id, rest, err := splitID(line)
	if err != nil {
		return nil, nil, err
	}
	f, err := scenario.Parse(rest)
	if err != nil {
		return id, nil, err
	}
	if f.System != system {
		return id, nil, fmt.Errorf("the request's system is %q, not %q", f.System, system)
	}
	if len(f.Expect) > 0 {
		return id, nil, errors.New("a request carries no expect")
	}
	return id, f, nil
}

// maxIDEcho bounds how much of an id that is not one an error quotes.
const maxIDEcho = 40

// splitID takes the top-level "id" key out of a request object, leaving
// every other byte as it was; the id is nil when there is none. line is
// one JSON object (CheckLine), so its top level is walked in place: a
// decoder would first copy every value into its buffer only to find the
// keys.
func splitID(line []byte) (*int64, []byte, error) {
	var id *int64
	var from, to int            // the id's key and value, with the comma that goes with them
	var idAt int                // where the id's key begins
	i := skipSpace(line, 0) + 1 // past {
	for first := true; ; first = false {
		i = skipSpace(line, i)
		if line[i] == '}' {
			break
		}
		start := i
		if !first {
			i = skipSpace(line, i+1) // past ,
		}
		keyStart := i
		i = skipJSON(line, i)
		key := line[keyStart:i]
		i = skipSpace(line, i)
		valStart := skipSpace(line, i+1) // past :
		i = skipJSON(line, valStart)
		if !isIDKey(key) {
			continue
		}
		if id != nil {
			return nil, nil, fmt.Errorf("id: given twice (columns %d and %d); a request has one id, which its answer echoes", idAt+1, keyStart+1)
		}
		v := line[valStart:i]
		n, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil {
			return nil, nil, fmt.Errorf("id %s is not an integer from -2^63 to 2^63-1", clipID(v))
		}
		id, idAt = &n, keyStart
		from, to = start, i
		if first {
			// Drop the comma after it instead, if there is one.
			if j := skipSpace(line, i); line[j] == ',' {
				to = j + 1
			}
			from = keyStart
		}
	}
	if id == nil {
		return nil, line, nil
	}
	out := make([]byte, 0, len(line)-(to-from))
	return id, append(append(out, line[:from]...), line[to:]...), nil
}

// isIDKey reports whether the quoted key is "id", escapes decoded.
func isIDKey(quoted []byte) bool {
	if bytes.Equal(quoted, []byte(`"id"`)) {
		return true
	}
	if len(quoted) > 16 || bytes.IndexByte(quoted, '\\') < 0 {
		return false
	}
	var k string
	return json.Unmarshal(quoted, &k) == nil && k == "id"
}

// clipID quotes at most maxIDEcho bytes of an id that is not one, with
// its length when it is cut: a number of a million digits is named, not
// echoed.
func clipID(v []byte) string {
	if len(v) <= maxIDEcho {
		return string(v)
	}
	cut := v[:maxIDEcho]
	for len(cut) > 0 && !utf8.Valid(cut) {
		cut = cut[:len(cut)-1]
	}
	return fmt.Sprintf("%s… (%d bytes)", cut, len(v))
}

// jsonSpace is the white space JSON allows between tokens.
const jsonSpace = " \t\r\n"

func skipSpace(js []byte, i int) int {
	for i < len(js) && strings.IndexByte(jsonSpace, js[i]) >= 0 {
		i++
	}
	return i
}

// skipJSON returns the offset just past the value that begins at i in
// js, which is valid JSON: a string, an object or array (to its closing
// bracket, strings inside skipped whole), or a literal or number (to the
// next delimiter).
func skipJSON(js []byte, i int) int {
	depth := 0
	for ; i < len(js); i++ {
		switch c := js[i]; c {
		case '"':
			i++
			for js[i] != '"' {
				if js[i] == '\\' {
					i++
				}
				i++
			}
			if depth == 0 {
				return i + 1
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i
			}
			depth--
			if depth == 0 {
				return i + 1
			}
		case ',', ':', ' ', '\t', '\r', '\n':
			if depth == 0 {
				return i
			}
		}
	}
	return i
}
