package hostcheck

import (
	"cmp"
	"context"
	"slices"
	"strconv"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/condengine/condengine/config/crd"
)

// newStore is the API server: controller-runtime's fake client with the
// status subresource of the kinds the host writes, managed fields
// returned, and server-side apply typed by the CRDs' schemas.
func newStore(sys system, objs []client.Object) (client.WithWatch, error) {
	var status []client.Object
	for _, gvk := range append(sys.statusKinds(), sys.silentKinds()...) {
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(gvk)
		status = append(status, u)
	}
	tc, err := crd.TypeConverter()
	if err != nil {
		return nil, err
	}
	return fake.NewClientBuilder().
		WithScheme(sys.scheme()).
		WithObjects(objs...).
		WithStatusSubresource(status...).
		WithReturnManagedFields().
		WithTypeConverters(tc, managedfields.NewDeducedTypeConverter()).
		Build(), nil
}

// listAll reads every object of the kinds, sorted by kind, namespace and
// name.
func listAll(ctx context.Context, r client.Reader, kinds []schema.GroupVersionKind) ([]*unstructured.Unstructured, error) {
	var out []*unstructured.Unstructured
	for _, gvk := range kinds {
		var l unstructured.UnstructuredList
		l.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
		if err := r.List(ctx, &l); err != nil {
			return nil, err
		}
		for i := range l.Items {
			u := &l.Items[i]
			u.SetGroupVersionKind(gvk)
			out = append(out, u)
		}
	}
	sortObjects(out)
	return out, nil
}

func sortObjects(objs []*unstructured.Unstructured) {
	slices.SortFunc(objs, func(a, b *unstructured.Unstructured) int {
		return cmp.Or(cmp.Compare(a.GetKind(), b.GetKind()), cmp.Compare(a.GetNamespace(), b.GetNamespace()), cmp.Compare(a.GetName(), b.GetName()))
	})
}

// getStored reads one object from the store; nil when there is none.
func getStored(ctx context.Context, c client.Reader, gvk schema.GroupVersionKind, k objKey) (*unstructured.Unstructured, error) {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gvk)
	if err := c.Get(ctx, k.NamespacedName, u); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, nil
		}
		return nil, err
	}
	u.SetGroupVersionKind(gvk)
	return u, nil
}

// rv is an object's resourceVersion as a number; the fake store counts
// them up. 0 when unset.
func rv(s string) int64 {
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}
