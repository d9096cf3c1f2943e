package binding

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/condengine/condengine/manifest"
)

// Objects are decoded manifests, by kind, in the order they were read.
type Objects struct {
	Bindings    []Binding
	Backends    []AgentBackend
	Connections []ChatConnection
	// Skipped counts documents of other API groups, which the broker does
	// not read.
	Skipped int
}

// DocumentError is a manifest that could not be used, located by its
// position in the input (from 0) and, when known, its identity.
type DocumentError struct {
	Index     int
	Kind      string
	Namespace string
	Name      string
	Err       error
}

func (e *DocumentError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "document %d", e.Index)
	if e.Kind != "" {
		b.WriteString(" (" + e.Kind)
		if e.Name != "" {
			b.WriteString(" " + manifest.JoinName(e.Namespace, e.Name))
		}
		b.WriteString(")")
	}
	b.WriteString(": " + e.Err.Error())
	return b.String()
}

// Unwrap gives the cause, so errors.Is finds ErrStatusInFile.
func (e *DocumentError) Unwrap() error { return e.Err }

// ErrStatusInFile refuses a Binding file on the ConfigMap route that sets
// status: only the broker may say what became of a Binding.
var ErrStatusInFile = errors.New("status: a file may not set it, remove it")

// Decode reads a stream of YAML or JSON manifests (YAML documents split by
// "---"). Documents of other API groups are counted and skipped; an
// Agent Kourier document of an unknown kind or version, or with a field of
// the wrong type, is an error that names the document and the field.
func Decode(raw []byte) (Objects, error) {
	docs, err := manifest.Split(raw)
	if err != nil {
		return Objects{}, err
	}
	return DecodeObjects(docs)
}

// DecodeObjects decodes manifests already split and converted to JSON,
// such as a scenario's objects. Every bad document is reported, joined.
func DecodeObjects(raws []json.RawMessage) (Objects, error) {
	var out Objects
	var errs []error
	for i, raw := range raws {
		if err := decodeOne(&out, i, raw); err != nil {
			errs = append(errs, err)
		}
	}
	return out, errors.Join(errs...)
}

func decodeOne(out *Objects, i int, raw json.RawMessage) error {
	h, err := manifest.ReadHeader(raw)
	if err != nil {
		return &DocumentError{Index: i, Err: err}
	}
	fail := func(err error) error {
		return &DocumentError{Index: i, Kind: h.Kind, Namespace: h.Metadata.Namespace, Name: h.Metadata.Name, Err: err}
	}
	if h.Kind == "" {
		return fail(errors.New("kind: required"))
	}
	group, version, _ := strings.Cut(h.APIVersion, "/")
	if h.APIVersion == "" {
		return fail(errors.New("apiVersion: required"))
	}
	if group != Group {
		out.Skipped++
		return nil
	}
	if version != Version {
		return fail(fmt.Errorf("apiVersion: %q is not served; use %s", h.APIVersion, APIVersion))
	}
	switch h.Kind {
	case KindBinding:
		var o Binding
		if err := json.Unmarshal(raw, &o); err != nil {
			return fail(manifest.FieldError(err))
		}
		out.Bindings = append(out.Bindings, o)
	case KindAgentBackend:
		var o AgentBackend
		if err := json.Unmarshal(raw, &o); err != nil {
			return fail(manifest.FieldError(err))
		}
		out.Backends = append(out.Backends, o)
	case KindChatConnection:
		var o ChatConnection
		if err := json.Unmarshal(raw, &o); err != nil {
			return fail(manifest.FieldError(err))
		}
		out.Connections = append(out.Connections, o)
	default:
		return fail(fmt.Errorf("kind: %q is not a kind of %s (want %s, %s or %s)",
			h.Kind, Group, KindBinding, KindAgentBackend, KindChatConnection))
	}
	return nil
}

// ValidateConfigMapFile checks a Binding file for the ConfigMap route:
// besides decoding, no Binding may set status. Every bad document is
// reported; errors.Is(err, ErrStatusInFile) tells the status refusal.
func ValidateConfigMapFile(raw []byte) error {
	docs, err := manifest.Split(raw)
	if err != nil {
		return err
	}
	_, decodeErr := DecodeObjects(docs)
	errs := []error{decodeErr}
	for i, d := range docs {
		h, err := manifest.ReadHeader(d)
		if err != nil || h.Kind != KindBinding || !strings.HasPrefix(h.APIVersion, Group+"/") {
			continue
		}
		var top map[string]json.RawMessage
		if json.Unmarshal(d, &top) != nil {
			continue
		}
		if st, ok := top["status"]; ok && !bytes.Equal(bytes.TrimSpace(st), []byte("null")) {
			errs = append(errs, &DocumentError{Index: i, Kind: h.Kind, Namespace: h.Metadata.Namespace, Name: h.Metadata.Name, Err: ErrStatusInFile})
		}
	}
	return errors.Join(errs...)
}
