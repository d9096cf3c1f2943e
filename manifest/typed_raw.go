package manifest

import (
	"reflect"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A type decoded straight may hold values that no decoder of field
// names looks into: JSON kept as it was written (json.RawMessage,
// metav1.FieldsV1, any type that decodes itself from an object), or a
// value whose type is known only at run time (an interface). The
// straight decode has its strict checks only for fields; rawIn says
// whether a decoded value holds either kind, so that the first is
// scanned for a key given twice and the second is left to the full
// reading, which decodes numbers in it otherwise.

// rawState is what a decoded value holds besides typed fields.
type rawState uint8

const (
	rawNone  rawState = iota
	rawKept           // JSON kept as written
	rawOther          // a value of an interface type
)

// rawPlan is where, in values of one type, raw values may be: nil when
// nowhere.
type rawPlan struct {
	leaf   rawState       // the value itself, when it is raw
	fields []rawFieldPlan // a struct's fields that may hold raw values
	elem   *rawPlan       // a pointer's, slice's, array's or map's elements
	kind   reflect.Kind
}

type rawFieldPlan struct {
	index int
	plan  *rawPlan
}

// decodesItself are types that decode themselves from a JSON string
// only, so they keep no object as written.
var decodesItself = map[reflect.Type]bool{
	reflect.TypeFor[metav1.Time]():      true,
	reflect.TypeFor[metav1.MicroTime](): true,
	reflect.TypeFor[metav1.Duration]():  true,
}

var rawPlans sync.Map // reflect.Type → *rawPlan

// rawIn says what v holds besides typed fields: the worst of its values.
func rawIn(v reflect.Value) rawState {
	return planOf(v.Type()).state(v)
}

func planOf(t reflect.Type) *rawPlan {
	if p, ok := rawPlans.Load(t); ok {
		return p.(*rawPlan)
	}
	p := buildPlan(t, map[reflect.Type]*rawPlan{})
	rawPlans.Store(t, p)
	return p
}

// buildPlan is t's plan; building holds the plans of the types being
// built, so that a type that holds itself ends.
func buildPlan(t reflect.Type, building map[reflect.Type]*rawPlan) *rawPlan {
	if p, ok := building[t]; ok {
		return p
	}
	switch {
	case t.Kind() == reflect.Interface:
		return &rawPlan{leaf: rawOther}
	case decodesItself[t]:
		return nil
	case reflect.PointerTo(t).Implements(jsonUnmarshaler):
		return &rawPlan{leaf: rawKept, kind: t.Kind()}
	}
	p := &rawPlan{kind: t.Kind()}
	building[t] = p
	defer delete(building, t)
	switch t.Kind() {
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() && !f.Anonymous || f.Tag.Get("json") == "-" {
				continue
			}
			if fp := buildPlan(f.Type, building); fp != nil {
				p.fields = append(p.fields, rawFieldPlan{index: i, plan: fp})
			}
		}
		if len(p.fields) == 0 {
			return nil
		}
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		if p.elem = buildPlan(t.Elem(), building); p.elem == nil {
			return nil
		}
	default:
		return nil
	}
	return p
}

// state is what v, of the plan's type, holds.
func (p *rawPlan) state(v reflect.Value) rawState {
	if p == nil {
		return rawNone
	}
	if p.leaf != rawNone {
		if v.IsZero() {
			return rawNone
		}
		return p.leaf
	}
	worst := rawNone
	switch p.kind {
	case reflect.Struct:
		for _, f := range p.fields {
			worst = max(worst, f.plan.state(v.Field(f.index)))
		}
	case reflect.Pointer:
		if !v.IsNil() {
			worst = p.elem.state(v.Elem())
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			worst = max(worst, p.elem.state(v.Index(i)))
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			worst = max(worst, p.elem.state(it.Value()))
		}
	}
	return worst
}
