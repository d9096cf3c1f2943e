package hostcheck

import (
	"cmp"
	"context"
	"slices"
	"strconv"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

// newStore is the API server: controller-runtime's fake client with the
// status subresource of the kinds the host writes, managed fields
// returned, and server-side apply typed by the CRDs' schemas.
func newStore(sys *harnessSystem, objs []client.Object) (client.WithWatch, error) {
	var status []client.Object
	for _, gvk := range sys.subresource {
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(gvk)
		status = append(status, u)
	}
	tcs := []managedfields.TypeConverter{managedfields.NewDeducedTypeConverter()}
	if sys.tc != nil {
		tcs = slices.Insert(tcs, 0, sys.tc)
	}
	c := fake.NewClientBuilder().
		WithScheme(sys.scheme).
		WithObjects(objs...).
		WithStatusSubresource(status...).
		WithReturnManagedFields().
		WithTypeConverters(tcs...).
		Build()
	return interceptor.NewClient(c, interceptor.Funcs{Delete: deleteMarking(sys.scheme)}), nil
}

// deleteMarking is the API server's delete of an object that finalizers
// hold: the first delete sets its deletionTimestamp and, as the server
// does for every object with a generation (markAsDeleting in
// k8s.io/apiserver's registry store), bumps metadata.generation in the
// same write. The fake client sets the timestamp only; the bump follows
// it here before anyone can read the object in between.
func deleteMarking(scheme *runtime.Scheme) func(context.Context, client.WithWatch, client.Object, ...client.DeleteOption) error {
	return func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteOption) error {
		gvk, err := apiutil.GVKForObject(obj, scheme)
		if err != nil {
			return c.Delete(ctx, obj, opts...)
		}
		k := ObjectKey{Kind: gvk.Kind, NamespacedName: client.ObjectKeyFromObject(obj)}
		before, err := getStored(ctx, c, gvk, k)
		if err != nil {
			return err
		}
		if err := c.Delete(ctx, obj, opts...); err != nil {
			return err
		}
		if before == nil || len(before.GetFinalizers()) == 0 || before.GetDeletionTimestamp() != nil || before.GetGeneration() == 0 {
			return nil
		}
		after, err := getStored(ctx, c, gvk, k)
		if err != nil || after == nil || after.GetDeletionTimestamp() == nil {
			return err
		}
		after.SetGeneration(before.GetGeneration() + 1)
		return c.Update(ctx, after)
	}
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
func getStored(ctx context.Context, c client.Reader, gvk schema.GroupVersionKind, k ObjectKey) (*unstructured.Unstructured, error) {
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

func keyOf(u *unstructured.Unstructured) ObjectKey {
	return ObjectKey{Kind: u.GetKind(), NamespacedName: types.NamespacedName{Namespace: u.GetNamespace(), Name: u.GetName()}}
}
