package hostcheck

import (
	"cmp"
	"fmt"
	"slices"
	"time"

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

// A partition cuts a replica's watch off for a while: one relist in
// four (Arg 3 or 7) starts one instead, lasting the next 3+Target
// events, during which the replica's cache takes nothing while the
// store moves on and the host keeps working from what it has; then, as
// a reflector does after a long outage, the replica relists, with
// Arg+1 times five minutes passed.
func partitionStarts(e event) bool { return e.Op == opResync && e.Arg%4 == 3 }

// partition starts a partition of p.
func (r *run) partition(p *replica, e event) {
	r.cut[p.id] = partitionState{left: 3 + e.Target, long: time.Duration(e.Arg+1) * 5 * time.Minute}
	r.trace = append(r.trace, fmt.Sprintf("     replica %d's watch is cut off for the next %d events", p.id, r.cut[p.id].left))
}

// partitionState is a replica's partition: the events it lasts and the
// time that passes before the relist.
type partitionState struct {
	left int
	long time.Duration
}

// partitionTick counts one event of every partition, and heals those
// that end.
func (r *run) partitionTick() {
	for _, p := range r.reps {
		if c := &r.cut[p.id]; c.left > 0 {
			c.left--
			if c.left == 0 {
				r.heal(p)
			}
		}
	}
}

// heal ends p's partition, if any: time passes and p relists.
func (r *run) heal(p *replica) {
	c := r.cut[p.id]
	if c.long == 0 {
		return
	}
	r.cut[p.id] = partitionState{}
	r.now = r.now.Add(c.long)
	r.trace = append(r.trace, fmt.Sprintf("     [%s] %v after it was cut off, replica %d's watch comes back and relists", r.now.Format("15:04:05"), c.long, p.id))
	r.resync(p)
}

// partitioned reports whether p's watch is cut off now.
func (r *run) partitioned(p *replica) bool { return r.cut[p.id].long != 0 }
