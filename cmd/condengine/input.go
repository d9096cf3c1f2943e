package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// maxDocumentBytes bounds one YAML document of a manifest stream, so a
// stream without separators cannot make eval hold an unbounded buffer.
const maxDocumentBytes = 64 << 20

// document is one manifest of an input stream, with where it came from so
// that every error can name it.
type document struct {
	// where is "FILE: document N" or "FILE: document N, items[i]".
	where string
	raw   json.RawMessage
	ident identity
}

// identity is the part of a manifest that routes it to a system.
type identity struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Namespace string `json:"namespace"`
		Name      string `json:"name"`
	} `json:"metadata"`
}

// group is the API group of the manifest ("" for the core group).
func (id identity) group() string {
	g, _, ok := strings.Cut(id.APIVersion, "/")
	if !ok {
		return ""
	}
	return g
}

func (id identity) String() string {
	if id.Metadata.Namespace == "" {
		return id.Kind + " " + id.Metadata.Name
	}
	return id.Kind + " " + id.Metadata.Namespace + "/" + id.Metadata.Name
}

// stream reads the documents of a YAML or JSON manifest stream one at a
// time, expanding List objects (kubectl get -o yaml) into their items, so
// the raw text of the whole input is never held at once.
type stream struct {
	name    string
	r       *utilyaml.YAMLReader
	n       int // documents read so far
	pending []document
	first   *pendingRaw
}

func newStream(name string, r io.Reader) *stream {
	return &stream{name: name, r: utilyaml.NewYAMLReader(bufio.NewReaderSize(r, 64<<10))}
}

// rawDocument returns the next non-empty document as JSON, and its index.
func (s *stream) rawDocument() ([]byte, int, error) {
	for {
		data, err := s.r.Read()
		if err == io.EOF {
			return nil, 0, io.EOF
		}
		s.n++
		if err != nil {
			return nil, s.n, fmt.Errorf("%s: document %d: %w", s.name, s.n, err)
		}
		if len(data) > maxDocumentBytes {
			return nil, s.n, fmt.Errorf("%s: document %d: %d bytes, more than %d", s.name, s.n, len(data), maxDocumentBytes)
		}
		trimmed := bytes.TrimSpace(data)
		if len(trimmed) == 0 || isCommentOnly(trimmed) {
			continue
		}
		js := trimmed
		if trimmed[0] != '{' {
			js, err = utilyaml.ToJSON(data)
			if err != nil {
				return nil, s.n, fmt.Errorf("%s: document %d: %w", s.name, s.n, err)
			}
		}
		if bytes.Equal(bytes.TrimSpace(js), []byte("null")) {
			continue
		}
		return js, s.n, nil
	}
}

func isCommentOnly(b []byte) bool {
	for _, line := range bytes.Split(b, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) > 0 && line[0] != '#' {
			return false
		}
	}
	return true
}

// next returns the next manifest, or io.EOF.
func (s *stream) next() (document, error) {
	if len(s.pending) > 0 {
		d := s.pending[0]
		s.pending = s.pending[1:]
		return d, nil
	}
	var js []byte
	var where string
	if s.first != nil {
		js, where = s.first.js, s.first.where
		s.first = nil
	} else {
		raw, n, err := s.rawDocument()
		if err != nil {
			return document{}, err
		}
		js, where = raw, fmt.Sprintf("%s: document %d", s.name, n)
	}
	d, err := identify(where, js)
	if err != nil {
		return document{}, err
	}
	if !isList(d.ident) {
		return d, nil
	}
	var list struct {
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(js, &list); err != nil {
		return document{}, fmt.Errorf("%s: items: %w", where, jsonProblem(err))
	}
	for i, item := range list.Items {
		it, err := identify(fmt.Sprintf("%s, items[%d]", where, i), item)
		if err != nil {
			return document{}, err
		}
		if isList(it.ident) {
			return document{}, fmt.Errorf("%s: a List inside a List is not supported", it.where)
		}
		s.pending = append(s.pending, it)
	}
	return s.next()
}

func isList(id identity) bool {
	return id.Kind == "List" || (strings.HasSuffix(id.Kind, "List") && id.Metadata.Name == "")
}

func identify(where string, js []byte) (document, error) {
	d := document{where: where, raw: js}
	if len(js) == 0 || js[0] != '{' {
		return d, fmt.Errorf("%s: not a YAML or JSON object", where)
	}
	if err := json.Unmarshal(js, &d.ident); err != nil {
		return d, fmt.Errorf("%s: %w", where, jsonProblem(err))
	}
	switch {
	case d.ident.Kind == "":
		return d, fmt.Errorf("%s: kind: required", where)
	case d.ident.APIVersion == "":
		return d, fmt.Errorf("%s (%s): apiVersion: required", where, d.ident.Kind)
	}
	if !isList(d.ident) && d.ident.Metadata.Name == "" {
		return d, fmt.Errorf("%s (%s): metadata.name: required", where, d.ident.Kind)
	}
	return d, nil
}

// jsonProblem rewrites encoding/json's errors into "field: problem" form,
// the way every other error of this command names what is wrong.
func jsonProblem(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := te.Field
		if field == "" {
			field = "(top level)"
		}
		return fmt.Errorf("%s: %s where %s is expected", field, te.Value, te.Type)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("invalid JSON at byte %d: %v", se.Offset, se)
	}
	return err
}

// looksLikeScenario reports whether a first document is a scenario file
// rather than a manifest: scenarios have a system and no kind.
func looksLikeScenario(js []byte) bool {
	var probe struct {
		System *string `json:"system"`
		Kind   *string `json:"kind"`
	}
	if json.Unmarshal(js, &probe) != nil {
		return false
	}
	return probe.System != nil && probe.Kind == nil
}

// unread puts a document read by rawDocument back in front of the stream.
func (s *stream) unread(js []byte) {
	where := fmt.Sprintf("%s: document %d", s.name, s.n)
	s.first = &pendingRaw{where: where, js: js}
}

type pendingRaw struct {
	where string
	js    []byte
}
