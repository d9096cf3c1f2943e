// Package manifest reads Kubernetes manifests the way kubectl prints and
// accepts them: YAML documents separated by ---, JSON, and List objects.
// It knows no kind; each system decodes the kinds it owns from the JSON
// documents this package yields, and every error names the document and
// the field, so a reader can find the problem in the file.
package manifest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"k8s.io/apimachinery/pkg/util/yaml"
)

// MaxDocumentBytes bounds one document of a stream, so input without
// separators cannot make a reader hold an unbounded buffer.
const MaxDocumentBytes = 64 << 20

// Header is the identity of a manifest, read without knowing its kind.
type Header struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Namespace string `json:"namespace"`
		Name      string `json:"name"`
	} `json:"metadata"`
}

// Group is the API group of the manifest, "" for the core group.
func (h Header) Group() string {
	g, _, ok := strings.Cut(h.APIVersion, "/")
	if !ok {
		return ""
	}
	return g
}

// IsList reports whether the manifest is a List of items, as
// `kubectl get -o yaml` prints several objects.
func (h Header) IsList() bool {
	return h.Kind == "List" || (strings.HasSuffix(h.Kind, "List") && h.Metadata.Name == "")
}

// String is "Kind namespace/name", or "Kind name" without a namespace.
func (h Header) String() string {
	return h.Kind + " " + JoinName(h.Metadata.Namespace, h.Metadata.Name)
}

// JoinName is "namespace/name", or name alone without a namespace.
func JoinName(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}

// ReadHeader reads a document's identity. It tolerates a metadata of the
// wrong shape, so that the full decode of the kind reports that error
// with its field; apiVersion and kind must be strings.
func ReadHeader(raw json.RawMessage) (Header, error) {
	var h Header
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || t[0] != '{' {
		return h, errors.New("a manifest must be an object")
	}
	var top struct {
		APIVersion json.RawMessage `json:"apiVersion"`
		Kind       json.RawMessage `json:"kind"`
		Metadata   json.RawMessage `json:"metadata"`
	}
	if err := json.Unmarshal(t, &top); err != nil {
		return h, FieldError(err)
	}
	if len(top.APIVersion) > 0 && json.Unmarshal(top.APIVersion, &h.APIVersion) != nil {
		return h, errors.New("apiVersion: must be a string")
	}
	if len(top.Kind) > 0 && json.Unmarshal(top.Kind, &h.Kind) != nil {
		return h, errors.New("kind: must be a string")
	}
	_ = json.Unmarshal(top.Metadata, &h.Metadata)
	return h, nil
}

// FieldError rewrites an error straight from encoding/json in the
// "path: problem" form every other problem takes, leading with the field
// a reader must fix. An error already wrapped with context is returned
// as it is.
func FieldError(err error) error {
	switch e := err.(type) {
	case *json.UnmarshalTypeError:
		path := e.Field
		if path == "" {
			path = "(document)"
		}
		return fmt.Errorf("%s: a JSON %s cannot be a %s", path, e.Value, e.Type)
	case *json.SyntaxError:
		return fmt.Errorf("invalid JSON at byte %d: %v", e.Offset, e)
	}
	return err
}

// Reader yields the documents of a YAML or JSON stream one at a time, as
// JSON, so the whole input is never held at once. Empty, comment-only and
// null documents are skipped; Lists are returned as they are (expand them
// with Items).
type Reader struct {
	r *yaml.YAMLReader
	n int // documents read so far, empty ones included
}

// NewReader reads manifests from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: yaml.NewYAMLReader(bufio.NewReaderSize(r, 64<<10))}
}

// Next returns the next non-empty document as JSON and its index in the
// stream, counting from 0. It returns io.EOF at the end.
func (r *Reader) Next() (json.RawMessage, int, error) {
	for {
		data, err := r.r.Read()
		if errors.Is(err, io.EOF) {
			return nil, r.n, io.EOF
		}
		i := r.n
		r.n++
		if err != nil {
			return nil, i, fmt.Errorf("document %d: %w", i, err)
		}
		if len(data) > MaxDocumentBytes {
			return nil, i, fmt.Errorf("document %d: %d bytes, more than %d", i, len(data), MaxDocumentBytes)
		}
		t := bytes.TrimSpace(data)
		if len(t) == 0 || commentOnly(t) {
			continue
		}
		// JSON passes through untouched (and fast); everything else,
		// YAML flow mappings such as {kind: A} included, is converted.
		js := t
		if t[0] != '{' || !json.Valid(t) {
			if js, err = toJSON(data); err != nil {
				return nil, i, fmt.Errorf("document %d: %w", i, err)
			}
			js = bytes.TrimSpace(js)
		}
		if len(js) == 0 || bytes.Equal(js, []byte("null")) {
			continue
		}
		return js, i, nil
	}
}

// toJSON converts one YAML document. apimachinery's ToJSON passes through
// anything that starts like JSON, which a YAML flow mapping ({kind: A})
// also does, so such a document is decoded as YAML and encoded again.
func toJSON(data []byte) ([]byte, error) {
	if !yaml.IsJSONBuffer(data) {
		return yaml.ToJSON(data)
	}
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

func commentOnly(b []byte) bool {
	for line := range bytes.SplitSeq(b, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) > 0 && line[0] != '#' {
			return false
		}
	}
	return true
}

// Split reads a whole stream into its non-empty JSON documents.
func Split(data []byte) ([]json.RawMessage, error) {
	r := NewReader(bytes.NewReader(data))
	var out []json.RawMessage
	for {
		js, _, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, js)
	}
}

// Items returns the items of a List manifest.
func Items(raw json.RawMessage) ([]json.RawMessage, error) {
	var list struct {
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, FieldError(err)
	}
	return list.Items, nil
}
