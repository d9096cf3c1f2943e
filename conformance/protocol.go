package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/condengine/condengine/scenario"
)

// Answer is one answer line of the conform protocol (docs/conform.md):
// the objects whose status the implementation writes, each with its
// conditions and other status fields.
type Answer struct {
	Objects []Object `json:"objects"`
}

// EncodeAnswer writes objs as one answer line, without the newline.
func EncodeAnswer(objs []Object) ([]byte, error) {
	if objs == nil {
		objs = []Object{}
	}
	return json.Marshal(Answer{Objects: objs})
}

// DecodeAnswer reads one answer line strictly: a single JSON object with
// the key "objects" (a list, possibly empty), no other keys at any level,
// every object with a kind and a name and every condition with a type.
func DecodeAnswer(line []byte) ([]Object, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	var a struct {
		Objects *[]Object `json:"objects"`
	}
	if err := dec.Decode(&a); err != nil {
		return nil, fmt.Errorf("not an answer: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("not an answer: more than one JSON value on the line")
	}
	if a.Objects == nil {
		return nil, errors.New(`not an answer: the key "objects" is missing or null`)
	}
	for i, o := range *a.Objects {
		if o.Kind == "" || o.Name == "" {
			return nil, fmt.Errorf("objects[%d]: kind and name are required", i)
		}
		for j, c := range o.Conditions {
			if c.Type == "" {
				return nil, fmt.Errorf("objects[%d] (%s).conditions[%d]: type is required", i, o.ID(), j)
			}
		}
		if st := bytes.TrimSpace(o.Status); len(st) > 0 && st[0] != '{' && !bytes.Equal(st, []byte("null")) {
			return nil, fmt.Errorf("objects[%d] (%s).status: not a JSON object", i, o.ID())
		}
	}
	return *a.Objects, nil
}

// ParseRequest reads one request line: a scenario of system as JSON. A
// request carries no expectations; one that does is refused, so the two
// sides cannot mistake a check for a question.
func ParseRequest(line []byte, system string) (*scenario.File, error) {
	f, err := scenario.Parse(line)
	if err != nil {
		return nil, err
	}
	if f.System != system {
		return nil, fmt.Errorf("request is a %q scenario, not %q", f.System, system)
	}
	if len(f.Expect) > 0 {
		return nil, errors.New("a request carries no expect")
	}
	return f, nil
}
