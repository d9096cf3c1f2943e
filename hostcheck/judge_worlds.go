package hostcheck

import (
	"cmp"
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
)

// heldChannel picks, for a delete, a Binding that holds a channel
// another Binding waits on (the same ChatConnection and channel, the
// older holding it): the Target-th such holder, nil when none is.
func heldChannel(objs []*unstructured.Unstructured, target int) *unstructured.Unstructured {
	by := map[string][]*unstructured.Unstructured{}
	var keys []string
	for _, u := range ofKind(objs, akv1.KindBinding) {
		chat, _, _ := unstructured.NestedMap(u.Object, "spec", "chat")
		k := fmt.Sprint(chat)
		if by[k] == nil {
			keys = append(keys, k)
		}
		by[k] = append(by[k], u)
	}
	var holders []*unstructured.Unstructured
	for _, k := range keys {
		bs := by[k]
		if len(bs) < 2 {
			continue
		}
		holders = append(holders, slices.MinFunc(bs, func(a, b *unstructured.Unstructured) int {
			ta, tb := a.GetCreationTimestamp(), b.GetCreationTimestamp()
			return cmp.Or(ta.Compare(tb.Time), cmp.Compare(a.GetNamespace(), b.GetNamespace()),
				cmp.Compare(a.GetName(), b.GetName()), cmp.Compare(a.GetUID(), b.GetUID()))
		}))
	}
	if len(holders) == 0 {
		return nil
	}
	return holders[target%len(holders)]
}

// getFault is the error a Get of one object fails with now: the
// world's ReadObjectError when it has one, else its ReadError of the
// kind.
func (r *run) getFault(scheme *runtime.Scheme, obj client.Object, key client.ObjectKey) error {
	if r.world.ReadObjectError == nil {
		return r.readFault(scheme, obj, "")
	}
	gvk, err := apiutil.GVKForObject(obj, scheme)
	if err != nil {
		return nil // the read itself reports it
	}
	return r.world.ReadObjectError(gvk.Kind, key.Namespace, key.Name)
}
