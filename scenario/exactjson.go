package scenario

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// MarshalJSON writes the file as encoding/json would, field for field and
// in the same order, except that every instant of its blocks (now, the
// broker's start, the writer's and the prober's memory, the collection's
// hour, an expectation's times) keeps its fraction of a second:
// metav1.Time alone writes whole seconds, and a request or a
// counterexample that lost the fraction of now or of a write's end would
// ask another question than the one the engine answered. A whole-second
// instant is written exactly as metav1.Time writes it. The objects are
// raw manifests and are written as they are.
func (f File) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := exactStruct(&b, reflect.ValueOf(f)); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

var timeType = reflect.TypeFor[metav1.Time]()

// exact writes v, handing every value that holds no metav1.Time to
// encoding/json.
func exact(b *bytes.Buffer, v reflect.Value) error {
	t := v.Type()
	if !holdsTime(t, nil) {
		out, err := json.Marshal(v.Interface())
		b.Write(out)
		return err
	}
	switch {
	case t == timeType:
		tm := v.Interface().(metav1.Time)
		if tm.IsZero() {
			b.WriteString("null")
			return nil
		}
		b.WriteString(`"` + tm.UTC().Format(time.RFC3339Nano) + `"`)
		return nil
	case t.Kind() == reflect.Pointer:
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		return exact(b, v.Elem())
	case t.Kind() == reflect.Slice:
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		b.WriteByte('[')
		for i := range v.Len() {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := exact(b, v.Index(i)); err != nil {
				return err
			}
		}
		b.WriteByte(']')
		return nil
	case t.Kind() == reflect.Map:
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(x, y reflect.Value) int { return strings.Compare(x.String(), y.String()) })
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			name, _ := json.Marshal(k.String())
			b.Write(name)
			b.WriteByte(':')
			if err := exact(b, v.MapIndex(k)); err != nil {
				return err
			}
		}
		b.WriteByte('}')
		return nil
	}
	return exactStruct(b, v)
}

// exactStruct writes a struct of this package the way encoding/json does:
// exported fields in order, named by their json tag, "-" left out and
// omitempty honoured. The package's structs embed none, so embedding is
// not handled (a test holds that).
func exactStruct(b *bytes.Buffer, v reflect.Value) error {
	t := v.Type()
	b.WriteByte('{')
	first := true
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = sf.Name
		}
		fv := v.Field(i)
		if slices.Contains(strings.Split(opts, ","), "omitempty") && emptyJSON(fv) {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		key, _ := json.Marshal(name)
		b.Write(key)
		b.WriteByte(':')
		if err := exact(b, fv); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}

// emptyJSON is encoding/json's test for omitempty.
func emptyJSON(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// holdsTime reports whether a value of t can hold a metav1.Time: t is
// one, or a struct of this package, pointer, slice or map that leads to
// one. seen stops a recursive type.
func holdsTime(t reflect.Type, seen map[reflect.Type]bool) bool {
	if t == timeType {
		return true
	}
	if seen[t] {
		return false
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice:
		return holdsTime(t.Elem(), seen)
	case reflect.Map:
		return t.Key().Kind() == reflect.String && holdsTime(t.Elem(), seen)
	case reflect.Struct:
		// Only this package's blocks: a condition's time is an object's
		// instant, read at whole seconds anyway.
		if t.PkgPath() != reflect.TypeFor[File]().PkgPath() {
			return false
		}
		if seen == nil {
			seen = map[reflect.Type]bool{}
		}
		seen[t] = true
		for i := range t.NumField() {
			if t.Field(i).IsExported() && holdsTime(t.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
}
