package manifest

import (
	"reflect"
	"unicode/utf8"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	sigsjson "sigs.k8s.io/json"
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
// itself. It reads the next document; when slot takes the object in it,
// the object is decoded into the value slot returned, recorded in seen
// as ExpandNew records it, and NextTyped returns the document, without
// its JSON, and true. Otherwise it returns the document as Next does,
// and false, having recorded nothing in seen; whatever slot handed out
// for that document holds nothing the caller may keep. The error is
// Next's. The items of a JSON List come one at a time, as from Next, and
// each is taken or given back on its own; a List read whole is given
// back.
func (r *Reader) NextTyped(seen *Identities, slot Slot) (*Document, bool, error) {
	return r.next(func(d *Document, t []byte) bool {
		switch {
		case len(t) == 0 || !utf8.Valid(t):
			return false
		case looksJSON(t):
			return decodeJSONTyped(d, t, seen, slot, &r.types)
		}
		return decodeYAMLTyped(d, d.source, seen, slot)
	})
}

// typedObject is what a slot's value is: a type embedding TypeMeta and
// ObjectMeta.
type typedObject interface {
	GetObjectKind() schema.ObjectKind
	GetObjectMeta() metav1.Object
}

// addTyped records in seen the object v, decoded as apiVersion and kind,
// at its place. It is false when v names no object, names another
// apiVersion or kind than it was decoded as (its type keeps them
// elsewhere), or names an object recorded before: the full reading
// reports each.
func addTyped(seen *Identities, v any, apiVersion, kind string, index, line int) bool {
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
	if seen.m == nil {
		seen.m = map[[16]byte]place{}
	}
	if _, dup := seen.m[k]; dup {
		return false
	}
	seen.m[k] = place{index: int32(index), line: int32(line)}
	return true
}

// decodeJSONTyped decodes the JSON object t, document d, into a slot:
// an object whose apiVersion and kind are its first two keys. It is
// false at the first thing the full reading must see to; a List, read
// item by item by the Reader, comes here as its items.
//
// sigs.k8s.io/json decodes it, as the API server does: keys match field
// names exactly, and a key that matches none, or a field given twice,
// is a strict error. So an object the full reading reads otherwise
// never passes: a key given twice, or in another case than its field's
// (Name beside name, which encoding/json would have set the field from
// in turn), or alone in another case (which the full reading accepts)
// goes to the full reading, which refuses or reads it. What that
// decoder does not look into, a value kept as raw JSON (metadata's
// managedFields), is scanned for a key given twice here.
func decodeJSONTyped(d *Document, t []byte, seen *Identities, slot Slot, types *typeNames) bool {
	av, kind, ok := peekType(t, 0, types)
	if !ok || kind == "List" {
		return false
	}
	v := slot(av, kind)
	if v == nil {
		return false
	}
	strict, err := sigsjson.UnmarshalStrict(t, v)
	if err != nil || len(strict) > 0 {
		return false
	}
	switch rawIn(reflect.ValueOf(v)) {
	case rawNone:
	case rawKept:
		if s := scanKeys(t); s.dup {
			return false
		}
	default:
		return false
	}
	return addTyped(seen, v, av, kind, d.Index, d.Line)
}

// peekType reads the apiVersion and kind of the object at t[i] when they
// are its first two keys (in either order), plain strings without
// escapes. The strings come from types, which converts each text once.
func peekType(t []byte, i int, types *typeNames) (apiVersion, kind string, ok bool) {
	i = skipSpace(t, i)
	if i >= len(t) || t[i] != '{' {
		return "", "", false
	}
	var av, k []byte
	for range 2 {
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
	return types.of(av), types.of(k), true
}

// typeNames holds the apiVersions and kinds read so far, up to a few,
// so that a stream of many objects of a few kinds gets each name as a
// string once rather than once per object.
type typeNames struct{ known []string }

// of is the text b as a string, one held when b is one of them.
func (c *typeNames) of(b []byte) string {
	for _, s := range c.known {
		if s == string(b) {
			return s
		}
	}
	s := string(b)
	if len(c.known) < 16 {
		c.known = append(c.known, s)
	}
	return s
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
