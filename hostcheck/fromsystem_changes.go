package hostcheck

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// prepare writes what an earlier leader left: the statuses Run answered
// an hour before the start, applied under our field manager to every
// other object of the status kind that needed a write.
func (w *adaptedWorld) prepare(ctx context.Context, c client.Client) error {
	objs, err := listAll(ctx, c, []schema.GroupVersionKind{w.a.gvk})
	if err != nil {
		return err
	}
	all, err := w.stored(ctx, c)
	if err != nil {
		return err
	}
	outs, err := w.run(all, w.observed, w.start.Add(-time.Hour))
	if err != nil {
		return err
	}
	for i, u := range objs {
		o, ok := outs[keyOf(u)]
		if !ok || !o.Write || i%2 == 1 {
			continue
		}
		var status map[string]any
		if len(o.Status) > 0 {
			if err := json.Unmarshal(o.Status, &status); err != nil {
				return fmt.Errorf("outcome of %s: status: %w", keyOf(u), err)
			}
		}
		if status == nil {
			status = map[string]any{}
		}
		// A status the store refuses is left unwritten: the host meets
		// that object unwritten. The apply carries the resourceVersion
		// read, as applyCondition's does.
		_ = applyStatus(ctx, c, w.a.sys.FieldManager, w.a.gvk, u.GetNamespace(), u.GetName(), u.GetResourceVersion(), status, w.a.status.Vocabulary.Owned(o.Conditions))
	}
	return nil
}

// stored lists every object of the system's kinds in the store.
func (w *adaptedWorld) stored(ctx context.Context, c client.Reader) ([]*unstructured.Unstructured, error) {
	var gvks []schema.GroupVersionKind
	for _, k := range w.a.sys.Kinds {
		gvks = append(gvks, schema.GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind})
	}
	return listAll(ctx, c, gvks)
}

// change carries out a user's or another controller's change.
func (w *adaptedWorld) change(ctx context.Context, c client.Client, e Event) (string, error) {
	objs, err := w.stored(ctx, c)
	if err != nil {
		return "", err
	}
	switch e.Op {
	case Delete:
		if len(objs) == 0 {
			return "", nil
		}
		u := objs[e.Target%len(objs)]
		return fmt.Sprintf("%s is deleted", keyOf(u)), client.IgnoreNotFound(c.Delete(ctx, u))
	case Foreign:
		ss := ofKind(objs, w.a.status.Kind)
		if len(ss) == 0 {
			return "", nil
		}
		u := ss[e.Target%len(ss)]
		return "on " + keyOf(u).String(), foreignWrite(ctx, c, u, e.Variant, e.Now, func(t string) bool { return w.a.ours(u.GetKind(), t) })
	case Create:
		return w.create(ctx, c, e)
	case Edit:
		if len(objs) == 0 {
			return "", nil
		}
		return w.edit(ctx, c, e, objs[e.Target%len(objs)].DeepCopy())
	}
	return "", nil
}

// edit replaces u's spec with that of a drawn object of its kind.
func (w *adaptedWorld) edit(ctx context.Context, c client.Client, e Event, u *unstructured.Unstructured) (string, error) {
	f, err := w.donor(e.Variant)
	if err != nil {
		return "", err
	}
	from := ofKind(f.objs, u.GetKind())
	if len(from) == 0 {
		return fmt.Sprintf("no drawn %s to take a spec from", u.GetKind()), nil
	}
	d := from[e.Target%len(from)]
	changed := false
	for k := range u.Object {
		if _, kept := d.Object[k]; !kept && !metaKey(k) {
			delete(u.Object, k)
			changed = true
		}
	}
	for k, v := range d.Object {
		if metaKey(k) || equalJSON(u.Object[k], v) {
			continue
		}
		u.Object[k] = runtime.DeepCopyJSONValue(v)
		changed = true
	}
	if !changed {
		return fmt.Sprintf("%s: the drawn spec is the one it has", keyOf(u)), nil
	}
	what := fmt.Sprintf("%s: spec replaced by that of the drawn %s %s/%s", keyOf(u), d.GetKind(), d.GetNamespace(), d.GetName())
	if g := u.GetGeneration(); g > 0 {
		u.SetGeneration(g + 1)
		what += fmt.Sprintf(" (generation %d)", g+1)
	}
	return what, c.Update(ctx, u)
}

// metaKey reports whether a top-level key is one an edit of the spec
// keeps.
func metaKey(k string) bool {
	return k == "apiVersion" || k == "kind" || k == "metadata" || k == "status"
}

func equalJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}

// create makes a new object of a drawn one: under its own name when no
// object of the world has had it, or with the count of creations added.
// (An object made again under a deleted one's name would start its
// resourceVersions over in the in-memory store, where the API server's
// only grow.)
func (w *adaptedWorld) create(ctx context.Context, c client.Client, e Event) (string, error) {
	f, err := w.donor(e.Variant)
	if err != nil {
		return "", err
	}
	if len(f.objs) == 0 {
		return "no drawn object to create", nil
	}
	u := f.objs[e.Target%len(f.objs)].DeepCopy()
	if w.named[keyOf(u)] {
		u.SetName(u.GetName() + "-" + strconv.Itoa(e.Created))
	}
	w.named[keyOf(u)] = true
	u.SetUID(types.UID("un-" + strconv.Itoa(e.Created)))
	u.SetCreationTimestamp(metav1.NewTime(e.Now))
	u.SetDeletionTimestamp(nil)
	u.SetFinalizers(nil)
	delete(u.Object, "status")
	if w.a.custom[u.GetKind()] {
		u.SetGeneration(1)
	}
	return fmt.Sprintf("%s is created", keyOf(u)), c.Create(ctx, u)
}

// observe: where a Binding schedule ends a probe pass, the observed
// block of a drawn file replaces the host's, and every object of the
// status kind is queued; no pass starts.
func (w *adaptedWorld) observe(ctx context.Context, c client.Reader, e Event) (string, []types.NamespacedName, error) {
	if e.Op != ObserveEnd {
		return "no observer pass starts (the observations come whole, with a drawn file)", nil, nil
	}
	f, err := w.donor(e.Variant)
	if err != nil {
		return "", nil, err
	}
	if len(f.observed) == 0 && len(w.observed) == 0 {
		return "nothing new is observed (the drawn file has no observed block)", nil, nil
	}
	w.observed = f.observed
	objs, err := listAll(ctx, c, []schema.GroupVersionKind{w.a.gvk})
	if err != nil {
		return "", nil, err
	}
	names := make([]types.NamespacedName, 0, len(objs))
	for _, u := range objs {
		names = append(names, keyOf(u).NamespacedName)
	}
	return fmt.Sprintf("new observations arrive: the observed block of the file drawn for variant %d", e.Variant), names, nil
}
