// Package typedlist reads custom resources (a list of one kind, or one
// object) through the unstructured client and converts them into the
// library's Go types, so the example hosts need no generated clientset or
// scheme registration.
package typedlist

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
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
		if err := convert(gvk, &ul.Items[i], &obj); err != nil {
			return nil, err
		}
		out = append(out, obj)
	}
	return out, nil
}

// Get reads the object of one kind with the given name, typed through its
// JSON form; it returns nil and no error when there is none. An error
// reading or converting it is named by kind, namespace and name.
func Get[T any](ctx context.Context, c client.Reader, gvk schema.GroupVersionKind, name types.NamespacedName) (*T, error) {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gvk)
	if err := c.Get(ctx, name, u); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("get %s %s: %w", gvk.Kind, name, err)
	}
	var obj T
	if err := convert(gvk, u, &obj); err != nil {
		return nil, err
	}
	return &obj, nil
}

// convert types one read object, naming it in the error.
func convert(gvk schema.GroupVersionKind, u *unstructured.Unstructured, into any) error {
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, into); err != nil {
		return fmt.Errorf("%s %s/%s: %w", gvk.Kind, u.GetNamespace(), u.GetName(), err)
	}
	return nil
}
