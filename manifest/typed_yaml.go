package manifest

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	yaml "go.yaml.in/yaml/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A YAML document is decoded straight by parsing it into nodes and
// filling the slot's value from them by the JSON names of its fields,
// without the YAML → JSON text → struct detour of the full reading. The
// full reading converts with the YAML 1.1 decoder, which reads more
// plain words as booleans and numbers than the YAML 1.2 parser used
// here, so every value whose reading could differ between the two is
// given back to the full reading, as is every tag, anchor, alias and
// merge key, every key that is not exactly a field's name, and every
// key given twice.

// decodeYAMLTyped decodes the YAML document text, d, into a slot: a
// mapping whose apiVersion and kind the slot takes. It is false at the
// first thing the full reading must see to.
func decodeYAMLTyped(d *Document, text []byte, seen *Identities, slot Slot) bool {
	var doc yaml.Node
	if yaml.Unmarshal(text, &doc) != nil || doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return false
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode || !plainNode(top) {
		return false
	}
	var av, kind string
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		switch {
		case k.Value == "apiVersion" && k.Kind == yaml.ScalarNode:
			av, _ = yamlString(v)
		case k.Value == "kind" && k.Kind == yaml.ScalarNode:
			kind, _ = yamlString(v)
		}
	}
	if av == "" || kind == "" || kind == "List" {
		return false
	}
	v := slot(av, kind)
	return v != nil && fillNode(top, reflect.ValueOf(v).Elem()) && addTyped(seen, v, av, kind, d.Index, d.Line)
}

// plainNode reports whether n carries no tag, anchor or alias.
func plainNode(n *yaml.Node) bool {
	return n.Kind != yaml.AliasNode && n.Anchor == "" && n.Style&yaml.TaggedStyle == 0
}

// fillNode sets v from n as encoding/json would set it from the JSON the
// full reading makes of n; false when n holds anything it does not read
// the same way.
func fillNode(n *yaml.Node, v reflect.Value) bool {
	if !plainNode(n) {
		return false
	}
	if n.Kind == yaml.ScalarNode && n.Style == 0 && n.ShortTag() == "!!null" {
		return true // null leaves a fresh value as it is
	}
	switch decoderOf(v.Type()) {
	case ownTime:
		// metav1.Time's UnmarshalJSON, for a string: an RFC 3339 time,
		// in the local zone.
		s, ok := yamlString(n)
		if !ok {
			return false
		}
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return false
		}
		v.Set(reflect.ValueOf(metav1.NewTime(t.Local())))
		return true
	case ownJSON:
		s, ok := yamlString(n)
		if !ok || !v.CanAddr() {
			return false
		}
		js, err := json.Marshal(s)
		return err == nil && v.Addr().Interface().(json.Unmarshaler).UnmarshalJSON(js) == nil
	case ownText:
		return false
	}
	switch v.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return false
		}
		fields := fieldsOf(v.Type())
		if !distinctKeys(n) {
			return false
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			name, ok := yamlString(n.Content[i])
			if !ok {
				return false
			}
			index, ok := fields[name]
			if !ok {
				return false
			}
			f, ok := fieldByIndex(v, index)
			if !ok || !fillNode(n.Content[i+1], f) {
				return false
			}
		}
		return true
	case reflect.Pointer:
		e := reflect.New(v.Type().Elem())
		if !fillNode(n, e.Elem()) {
			return false
		}
		v.Set(e)
		return true
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode || v.Type().Elem().Kind() == reflect.Uint8 {
			return false
		}
		s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
		for i, e := range n.Content {
			if !fillNode(e, s.Index(i)) {
				return false
			}
		}
		v.Set(s)
		return true
	case reflect.Map:
		if n.Kind != yaml.MappingNode || v.Type().Key().Kind() != reflect.String || !distinctKeys(n) {
			return false
		}
		m := reflect.MakeMapWithSize(v.Type(), len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, ok := yamlString(n.Content[i])
			if !ok {
				return false
			}
			e := reflect.New(v.Type().Elem()).Elem()
			if !fillNode(n.Content[i+1], e) {
				return false
			}
			m.SetMapIndex(reflect.ValueOf(k).Convert(v.Type().Key()), e)
		}
		v.Set(m)
		return true
	case reflect.String:
		s, ok := yamlString(n)
		if ok {
			v.SetString(s)
		}
		return ok
	case reflect.Bool:
		if n.Kind != yaml.ScalarNode || n.Style != 0 || (n.Value != "true" && n.Value != "false") {
			return false
		}
		v.SetBool(n.Value == "true")
		return true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if !plainDecimal(n) {
			return false
		}
		i, err := strconv.ParseInt(n.Value, 10, v.Type().Bits())
		if err != nil {
			return false
		}
		v.SetInt(i)
		return true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if !plainDecimal(n) {
			return false
		}
		u, err := strconv.ParseUint(n.Value, 10, v.Type().Bits())
		if err != nil {
			return false
		}
		v.SetUint(u)
		return true
	}
	return false
}

// plainDecimal reports whether n is a plain integer written as JSON
// writes one: an optional minus and digits without a leading zero.
func plainDecimal(n *yaml.Node) bool {
	if n.Kind != yaml.ScalarNode || n.Style != 0 || n.ShortTag() != "!!int" {
		return false
	}
	s := strings.TrimPrefix(n.Value, "-")
	if s == "" || (s[0] == '0' && len(s) > 1) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// yamlString is the text of a scalar that both YAML decoders read as a
// string: quoted or block text, or a plain word that neither reads as
// a boolean, a null, a number or a time.
func yamlString(n *yaml.Node) (string, bool) {
	if n.Kind != yaml.ScalarNode || !plainNode(n) {
		return "", false
	}
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return n.Value, true
	}
	s := n.Value
	if s == "" || n.ShortTag() != "!!str" {
		return "", false
	}
	switch c := s[0]; {
	case c == '+' || c == '-' || c == '.':
		return "", false
	case c >= '0' && c <= '9':
		if numberLike(s) || (len(s) > 4 && s[4] == '-') {
			return "", false
		}
	default:
		switch strings.ToLower(s) {
		case "y", "yes", "n", "no", "on", "off", "true", "false", "null":
			return "", false
		}
	}
	return s, true
}

// numberLike reports whether s, underscores dropped, reads as a number
// in any base Go knows: a superset of what either YAML decoder reads as
// one.
func numberLike(s string) bool {
	p := strings.ReplaceAll(s, "_", "")
	if _, err := strconv.ParseInt(p, 0, 64); err == nil {
		return true
	}
	if _, err := strconv.ParseUint(p, 0, 64); err == nil {
		return true
	}
	_, err := strconv.ParseFloat(p, 64)
	return err == nil || strings.ContainsAny(p, "eE")
}

// distinctKeys reports whether the keys of mapping n differ from each
// other in more than case: a key given twice is the full reading's to
// report, and so is one repeated in another case.
func distinctKeys(n *yaml.Node) bool {
	if len(n.Content) <= 2 {
		return true
	}
	if len(n.Content) <= 2*manyKeys {
		for i := 0; i < len(n.Content); i += 2 {
			for j := i + 2; j < len(n.Content); j += 2 {
				if strings.EqualFold(n.Content[i].Value, n.Content[j].Value) {
					return false
				}
			}
		}
		return true
	}
	seen := make(map[string]bool, len(n.Content)/2)
	for i := 0; i < len(n.Content); i += 2 {
		k := strings.ToLower(n.Content[i].Value)
		if seen[k] {
			return false
		}
		seen[k] = true
	}
	return true
}

// fieldByIndex is v.FieldByIndex, allocating embedded pointers on the
// way; false when one is a pointer to an unexported type, which
// encoding/json cannot set either.
func fieldByIndex(v reflect.Value, index []int) (reflect.Value, bool) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				if !v.CanSet() {
					return v, false
				}
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, true
}

// How a type is decoded from JSON: by encoding/json's rules for its
// kind, or by a decoder of its own.
const (
	byKind = iota
	ownTime
	ownJSON
	ownText
)

var decoderCache sync.Map // reflect.Type → int

// decoderOf says how encoding/json decodes a value of type t.
func decoderOf(t reflect.Type) int {
	if d, ok := decoderCache.Load(t); ok {
		return d.(int)
	}
	d := byKind
	switch p := reflect.PointerTo(t); {
	case t == timeType:
		d = ownTime
	case p.Implements(jsonUnmarshaler):
		d = ownJSON
	case p.Implements(textUnmarshaler):
		d = ownText
	}
	decoderCache.Store(t, d)
	return d
}

var fieldCache sync.Map // reflect.Type → map[string][]int

// fieldsOf maps the JSON names of t's fields, embedded structs' fields
// promoted as encoding/json promotes them, to their indexes.
func fieldsOf(t reflect.Type) map[string][]int {
	if m, ok := fieldCache.Load(t); ok {
		return m.(map[string][]int)
	}
	m := map[string][]int{}
	depth := map[string]int{}
	var walk func(t reflect.Type, prefix []int)
	walk = func(t reflect.Type, prefix []int) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			index := append(append([]int(nil), prefix...), i)
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
				walk(ft, index)
				continue
			}
			if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if d, ok := depth[name]; ok && d <= len(index) {
				if d == len(index) {
					m[name] = nil // two at one depth: encoding/json sets neither
				}
				continue
			}
			m[name], depth[name] = index, len(index)
		}
	}
	walk(t, nil)
	for k, v := range m {
		if v == nil {
			delete(m, k)
		}
	}
	fieldCache.Store(t, m)
	return m
}
