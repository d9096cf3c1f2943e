package bindinghost

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// bindingSchema tells the fake client's field manager what the Binding
// CRD tells the API server: status.conditions is a list keyed by type
// (listType=map). Without it the fake deduces an atomic list, so one
// writer's apply would take every condition, which the real API server
// never does.
const bindingSchema = `types:
- name: binding
  map:
    fields:
    - name: apiVersion
      type: {scalar: string}
    - name: kind
      type: {scalar: string}
    - name: metadata
      type: {namedType: __untyped_deduced_}
    - name: spec
      type: {namedType: __untyped_deduced_}
    - name: status
      type: {namedType: status}
- name: status
  map:
    fields:
    - name: conditions
      type:
        list:
          elementType: {namedType: condition}
          elementRelationship: associative
          keys: [type]
    elementType: {namedType: __untyped_deduced_}
- name: condition
  map:
    fields:
    - {name: type, type: {scalar: string}}
    - {name: status, type: {scalar: string}}
    - {name: reason, type: {scalar: string}}
    - {name: message, type: {scalar: string}}
    - {name: observedGeneration, type: {scalar: numeric}}
    - {name: lastTransitionTime, type: {scalar: string}}
- name: __untyped_atomic_
  scalar: untyped
  list:
    elementType: {namedType: __untyped_atomic_}
    elementRelationship: atomic
  map:
    elementType: {namedType: __untyped_atomic_}
    elementRelationship: atomic
- name: __untyped_deduced_
  scalar: untyped
  list:
    elementType: {namedType: __untyped_atomic_}
    elementRelationship: atomic
  map:
    elementType: {namedType: __untyped_deduced_}
    elementRelationship: separable
`

// bindingTypeConverter converts Bindings with bindingSchema and refuses
// every other kind, so the fake client falls back to its own converters
// for them.
type bindingTypeConverter struct{ t *typed.ParseableType }

var _ managedfields.TypeConverter = bindingTypeConverter{}

func newBindingTypeConverter() bindingTypeConverter {
	p, err := typed.NewParser(bindingSchema)
	if err != nil {
		panic(err) // a constant schema: a test bug
	}
	t := p.Type("binding")
	return bindingTypeConverter{t: &t}
}

func (c bindingTypeConverter) ObjectToTyped(obj runtime.Object, opts ...typed.ValidationOptions) (*typed.TypedValue, error) {
	if obj.GetObjectKind().GroupVersionKind() != BindingGVK {
		return nil, fmt.Errorf("not a Binding: %v", obj.GetObjectKind().GroupVersionKind())
	}
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil, err
	}
	return c.t.FromUnstructured(u, opts...)
}

func (c bindingTypeConverter) TypedToObject(v *typed.TypedValue) (runtime.Object, error) {
	m, ok := v.AsValue().Unstructured().(map[string]any)
	if !ok {
		return nil, fmt.Errorf("typed value is not an object")
	}
	u := &unstructured.Unstructured{Object: m}
	if u.GroupVersionKind() != BindingGVK {
		return nil, fmt.Errorf("not a Binding: %v", u.GroupVersionKind())
	}
	return u, nil
}
