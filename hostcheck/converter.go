package hostcheck

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// conditionsSchema types status.conditions as the CRDs do, a list keyed
// by type, so that each condition has its own owner. It stands in until
// the module's embedded CRDs carry a converter.
const conditionsSchema = `types:
- name: object
  map:
    fields:
    - {name: apiVersion, type: {scalar: string}}
    - {name: kind, type: {scalar: string}}
    - {name: metadata, type: {namedType: __untyped_deduced_}}
    - {name: spec, type: {namedType: __untyped_deduced_}}
    - {name: status, type: {namedType: status}}
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

type statusConverter struct {
	t     *typed.ParseableType
	group string
}

var _ managedfields.TypeConverter = statusConverter{}

func newStatusConverter(group string) (managedfields.TypeConverter, error) {
	p, err := typed.NewParser(conditionsSchema)
	if err != nil {
		return nil, err
	}
	t := p.Type("object")
	return statusConverter{t: &t, group: group}, nil
}

func (c statusConverter) ObjectToTyped(obj runtime.Object, opts ...typed.ValidationOptions) (*typed.TypedValue, error) {
	if g := obj.GetObjectKind().GroupVersionKind().Group; g != c.group {
		return nil, fmt.Errorf("not of group %s: %s", c.group, g)
	}
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil, err
	}
	return c.t.FromUnstructured(u, opts...)
}

func (c statusConverter) TypedToObject(v *typed.TypedValue) (runtime.Object, error) {
	m, ok := v.AsValue().Unstructured().(map[string]any)
	if !ok {
		return nil, fmt.Errorf("typed value is not an object")
	}
	return &unstructured.Unstructured{Object: m}, nil
}
