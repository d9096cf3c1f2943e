package manifest

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The documents a system knows by their kinds can be decoded straight
// into its typed objects, in one pass over the text, rather than
// converted to JSON, searched for their kind and decoded once more. The
// straight path is a shortcut only: it takes a document when nothing in
// it needs more than the plain decode (no List inside a List, no kind the
// system does not name, no problem of any kind), and gives every other
// document back, untouched, to the reading that Next, Expand and
// Unmarshal do, which then reports its problems as always. So an object
// decoded straight is the one the full reading would have produced, and
// an error is always the full reading's.

// Slot returns where an object of the given apiVersion and kind is to be
// decoded: a pointer to a zero value of the system's type for it, which
// embeds metav1.TypeMeta and metav1.ObjectMeta. It returns nil for an
// object the system does not decode straight; the document then takes
// the full reading.
type Slot func(apiVersion, kind string) any

// NextTyped is Next for a reader whose caller decodes some kinds
// itself. It reads the next document; when slot takes every object in it
// (the document itself, or each item of a List that holds no List), the
// objects are decoded into the values slot returned, recorded in seen as
// ExpandNew records them, and NextTyped returns the document, without
// its JSON, and true. Otherwise it returns the document as Next does,
// and false, having recorded nothing in seen; whatever slot handed out
// for that document holds nothing the caller may keep. The error is
// Next's. The items of a JSON List come one at a time, as from Next.
func (r *Reader) NextTyped(seen *Identities, slot Slot) (*Document, bool, error) {
	return r.next(func(d *Document, t []byte) bool {
		a := typedAdds{seen: seen}
		if len(t) == 0 || !utf8.Valid(t) {
			return false
		}
		if looksJSON(t) {
			if t[0] == '{' && DuplicateKey(t) == nil && decodeJSONTyped(d, t, &a, slot) {
				return true
			}
		} else if decodeYAMLTyped(d, d.source, &a, slot) {
			return true
		}
		a.undo()
		return false
	})
}

// typedObject is what a slot's value is: a type embedding TypeMeta and
// ObjectMeta.
type typedObject interface {
	GetObjectKind() schema.ObjectKind
	GetObjectMeta() metav1.Object
}

// typedAdds records, in seen, the objects of one document as they are
// decoded, so that they can be taken out again when the document is
// given back to the full reading.
type typedAdds struct {
	seen  *Identities
	added [][16]byte
}

// add records the object v, decoded as apiVersion and kind, at its
// place. It is false when v names no object, names another apiVersion
// or kind than it was decoded as (a key repeated in another case), or
// names an object recorded before: the full reading reports each.
func (a *typedAdds) add(v any, apiVersion, kind string, index, line int) bool {
	o, ok := v.(typedObject)
	if !ok {
		return false
	}
	tm, ok := o.GetObjectKind().(*metav1.TypeMeta)
	meta := o.GetObjectMeta()
	if !ok || tm.APIVersion != apiVersion || tm.Kind != kind || meta.GetName() == "" {
		return false
	}
	h := Header{APIVersion: apiVersion, Kind: kind}
	h.Metadata.Namespace, h.Metadata.Name = meta.GetNamespace(), meta.GetName()
	k := identityKey(&h)
	if a.seen.m == nil {
		a.seen.m = map[[16]byte]place{}
	}
	if _, dup := a.seen.m[k]; dup {
		return false
	}
	a.seen.m[k] = place{index: int32(index), line: int32(line)}
	a.added = append(a.added, k)
	return true
}

// undo takes out what add recorded.
func (a *typedAdds) undo() {
	for _, k := range a.added {
		delete(a.seen.m, k)
	}
	a.added = a.added[:0]
}

// decodeJSONTyped decodes the JSON object t, document d, into slots:
// an object whose apiVersion and kind are its first two keys, or a
// List (kind "List") of such objects, with one json.Decoder, as strict
// as Unmarshal. It is false at the first thing the full reading must
// see to.
func decodeJSONTyped(d *Document, t []byte, a *typedAdds, slot Slot) bool {
	var last typeNames
	dec := json.NewDecoder(bytes.NewReader(t))
	dec.DisallowUnknownFields()
	if av, kind, ok := last.peek(t, 0); ok && kind != "List" {
		v := slot(av, kind)
		return v != nil && dec.Decode(v) == nil && int(dec.InputOffset()) == len(t) &&
			a.add(v, av, kind, d.Index, d.Line)
	}
	// A List, as kubectl prints it: its items come before its kind.
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	var h Header
	items := false
	lead := bytes.Count(d.source[:bytes.Index(d.source, t[:1])], []byte("\n"))
	line, from := 0, 0 // lines of t before offset from
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return false
		}
		switch key {
		case "apiVersion", "kind":
			tok, err := dec.Token()
			s, ok := tok.(string)
			if err != nil || !ok {
				return false
			}
			if key == "kind" {
				h.Kind = s
			} else {
				h.APIVersion = s
			}
		case "metadata":
			var raw json.RawMessage
			if dec.Decode(&raw) != nil {
				return false
			}
			_ = json.Unmarshal(raw, &h.Metadata) // as ReadHeader reads it
		case "items":
			if tok, err := dec.Token(); items || err != nil || tok != json.Delim('[') {
				return false
			}
			items = true
			for dec.More() {
				at := skipSeparator(t, int(dec.InputOffset()))
				av, kind, ok := last.peek(t, at)
				if !ok || kind == "List" {
					return false
				}
				v := slot(av, kind)
				if v == nil || dec.Decode(v) != nil {
					return false
				}
				line += bytes.Count(t[from:at], []byte("\n"))
				from = at
				if !a.add(v, av, kind, d.Index, d.sourceLine+lead+line) {
					return false
				}
			}
			if tok, err := dec.Token(); err != nil || tok != json.Delim(']') {
				return false
			}
		default:
			return false
		}
	}
	tok, err := dec.Token()
	return err == nil && tok == json.Delim('}') && int(dec.InputOffset()) == len(t) &&
		items && h.IsList()
}

// skipSeparator skips the white space and the comma before the next
// value of a JSON array.
func skipSeparator(t []byte, i int) int {
	i = skipSpace(t, i)
	if i < len(t) && t[i] == ',' {
		i = skipSpace(t, i+1)
	}
	return i
}

// typeNames keeps the apiVersion and kind last read, so that the items
// of a List, which repeat them, share one copy of each.
type typeNames struct{ apiVersion, kind string }

// peek reads the apiVersion and kind of the object at t[i] when they are
// its first two keys (in either order), plain strings without escapes.
func (n *typeNames) peek(t []byte, i int) (apiVersion, kind string, ok bool) {
	i = skipSpace(t, i)
	if i >= len(t) || t[i] != '{' {
		return "", "", false
	}
	var av, k []byte
	for pair := 0; pair < 2; pair++ {
		key, j, ok := plainString(t, skipSpace(t, i+1))
		if !ok {
			return "", "", false
		}
		j = skipSpace(t, j)
		if j >= len(t) || t[j] != ':' {
			return "", "", false
		}
		val, j, ok := plainString(t, skipSpace(t, j+1))
		if !ok {
			return "", "", false
		}
		switch string(key) {
		case "apiVersion":
			av = val
		case "kind":
			k = val
		default:
			return "", "", false
		}
		i = skipSpace(t, j)
		if i >= len(t) || t[i] != ',' {
			return "", "", false
		}
	}
	if len(av) == 0 || len(k) == 0 {
		return "", "", false
	}
	if string(av) != n.apiVersion {
		n.apiVersion = string(av)
	}
	if string(k) != n.kind {
		n.kind = string(k)
	}
	return n.apiVersion, n.kind, true
}

// plainString reads the JSON string at t[i] when it has no escapes, and
// returns its text and the offset past it.
func plainString(t []byte, i int) ([]byte, int, bool) {
	if i >= len(t) || t[i] != '"' {
		return nil, i, false
	}
	for j := i + 1; j < len(t); j++ {
		switch t[j] {
		case '\\':
			return nil, i, false
		case '"':
			return t[i+1 : j], j + 1, true
		}
	}
	return nil, i, false
}
