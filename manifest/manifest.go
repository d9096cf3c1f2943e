// Package manifest reads Kubernetes manifests the way kubectl prints and
// accepts them: YAML documents separated by ---, JSON, and List objects
// (nested ones too). It knows no kind; each system decodes the kinds it
// owns from the Documents this package yields, with Document.Unmarshal,
// as strictly as kubectl apply --validate=strict. Every problem is a
// *DocumentError naming the file, the document (from 1), the List item,
// the field and its line, so a reader finds it in the file and a program
// never parses error text.
//
// Reader enforces MaxDocumentBytes and MaxStreamBytes while it reads:
// see docs/limits.md for the bounds and what each bad input gives.
//
// # Decisions
//
//   - Documents count from 1, every --- section counted, empty ones
//     included; a blank or comment-only header before the first --- is
//     not a document.
//   - A document that starts with {" or [ is JSON and its errors are
//     JSON's; anything else is YAML (a flow mapping {kind: A} included).
//   - Text that is not UTF-8 is refused, naming the line (and in JSON
//     the field), never replaced with U+FFFD.
//   - The line of a field in YAML is found by looking for each key of its
//     path after its parent's line; in JSON it is exact.
//   - A JSON List is read item by item, before its kind is known when
//     the items come first (docs/decisions/list-item-by-item.md).
//   - An object with an items list is a List, whatever the order of its
//     keys; one whose kind is not a List's is refused. Lists in Lists
//     are expanded in one walk of the text, MaxListDepth deep at most.
//   - A lone CR ends a line as LF does; a byte order mark before a
//     document is passed over.
package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
)

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

// Items returns the items of a List manifest. A List whose items are
// null, or missing, is refused as an empty input is: kubectl writes
// `items: []` for a List of nothing, so a List without its list is a
// file cut short or written by hand, not an answer.
func Items(raw json.RawMessage) ([]json.RawMessage, error) {
	var list struct {
		Items *[]json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, FieldError(err)
	}
	if list.Items == nil {
		return nil, errNoItems
	}
	return *list.Items, nil
}

var errNoItems = errors.New("items: null or missing; a List lists its objects under items ([] when there are none)")
