package hostcheck

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
)

// TestStoreDeleteBumpsGeneration: as the API server does, the delete
// that sets deletionTimestamp on an object a finalizer holds bumps its
// generation once; a second delete, and a delete that removes the object
// at once, bump nothing.
func TestStoreDeleteBumpsGeneration(t *testing.T) {
	ctx := context.Background()
	held := &akv1.Binding{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "held", Generation: 3, Finalizers: []string{"example.com/hold"}}}
	free := &akv1.Binding{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "free", Generation: 2}}
	sys, err := newHarnessSystem(Binding())
	if err != nil {
		t.Fatal(err)
	}
	st, err := newStore(sys, []client.Object{held, free})
	if err != nil {
		t.Fatal(err)
	}
	key := ObjectKey{Kind: akv1.KindBinding, NamespacedName: client.ObjectKeyFromObject(held)}
	for i, want := range []int64{4, 4} {
		if err := st.Delete(ctx, held.DeepCopy()); err != nil {
			t.Fatalf("delete %d: %v", i+1, err)
		}
		u, err := getStored(ctx, st, bindingGVK, key)
		if err != nil || u == nil {
			t.Fatalf("delete %d: the held object is gone (%v)", i+1, err)
		}
		if u.GetDeletionTimestamp() == nil {
			t.Fatalf("delete %d: no deletionTimestamp", i+1)
		}
		if u.GetGeneration() != want {
			t.Fatalf("delete %d: generation %d, want %d", i+1, u.GetGeneration(), want)
		}
	}
	if err := st.Delete(ctx, free.DeepCopy()); err != nil {
		t.Fatal(err)
	}
	if u, err := getStored(ctx, st, bindingGVK, ObjectKey{Kind: akv1.KindBinding, NamespacedName: client.ObjectKeyFromObject(free)}); err != nil || u != nil {
		t.Fatalf("the object no finalizer holds is still stored (%v)", err)
	}
}
