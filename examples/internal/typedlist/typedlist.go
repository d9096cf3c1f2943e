// Package typedlist lists custom resources through the unstructured
// client and converts them into the library's Go types, so the example
// hosts need no generated clientset or scheme registration.
package typedlist

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// List reads every object of one kind, typed through its JSON form. An
// object that does not convert fails the list, named by kind, namespace
// and name.
func List[T any](ctx context.Context, c client.Reader, gvk schema.GroupVersionKind) ([]T, error) {
	var ul unstructured.UnstructuredList
	ul.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
	if err := c.List(ctx, &ul); err != nil {
		return nil, fmt.Errorf("list %s: %w", gvk.Kind, err)
	}
	out := make([]T, 0, len(ul.Items))
	for i := range ul.Items {
		var obj T
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(ul.Items[i].Object, &obj); err != nil {
			return nil, fmt.Errorf("%s %s/%s: %w", gvk.Kind, ul.Items[i].GetNamespace(), ul.Items[i].GetName(), err)
		}
		out = append(out, obj)
	}
	return out, nil
}
