package hostcheck

import (
	"cmp"
	"fmt"
	"reflect"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/condengine/condengine/binding/policy"
	"github.com/condengine/condengine/conditions"
)

// storeEvent is one change of the store, as an informer reports it: the
// object after the change, or deleted.
type storeEvent struct {
	key     ObjectKey
	gvk     schema.GroupVersionKind
	obj     *unstructured.Unstructured // nil: deleted
	version int64                      // the event's place in the store's log
}

// replica is one process of the host: its cache, its work queue, the
// host incarnation and what the harness tracks of it.
type replica struct {
	id          int
	incarnation int
	startedAt   time.Time
	host        reconcile.Reconciler
	// running: the replica reconciles (it leads, or was deposed and
	// keeps running).
	running bool

	cache map[ObjectKey]*unstructured.Unstructured
	// cacheVer is the log sequence of the last event taken per object,
	// deleted ones included.
	cacheVer map[ObjectKey]int64
	inbox    []storeEvent
	queue    map[types.NamespacedName]time.Time
	// errors counts the failed reconciles of a request, for its backoff.
	errors map[types.NamespacedName]int

	// seen is the newest resourceVersion this incarnation read of each
	// object.
	seen map[ObjectKey]int64
	// fail is the write failures armed for the next writes.
	fail []failKind
	// crashIn counts the writes left before an armed crash; 0: none.
	crashIn int
	// typed holds each cache entry's typed form, made on first read.
	typed map[*unstructured.Unstructured]reflect.Value
	// writer is the harness's account of this incarnation's writes per
	// object, for the writer policy's gap and backoff.
	writer map[types.UID]policy.Memory
	// views is what this incarnation read of each object whose status
	// the writer policy guards (nil for a system not held to it): the
	// harness counts foreign edits from these, as the host could see them.
	views map[ObjectKey]*view
	// clock reads the virtual clock, for the times of views.
	clock func() time.Time
	// ours reports whether a condition type of a kind is ours, and
	// whether views are kept for the kind.
	ours     func(kind, condType string) bool
	viewKind func(kind string) bool
	// planned holds the objects whose status the running reconcile has
	// written: a later status request of the same reconcile is the next
	// step of one write plan (a removal, then the apply), not a new write.
	planned map[types.UID]bool
}

func newReplica(id int) *replica {
	return &replica{id: id, cache: map[ObjectKey]*unstructured.Unstructured{}, queue: map[types.NamespacedName]time.Time{},
		errors: map[types.NamespacedName]int{}, seen: map[ObjectKey]int64{}, writer: map[types.UID]policy.Memory{}, planned: map[types.UID]bool{}}
}

// take applies an event to the cache as an informer does: never going
// back to an older version of an object.
func (p *replica) take(ev storeEvent) {
	if ev.version <= p.cacheVer[ev.key] {
		return
	}
	p.cacheVer[ev.key] = ev.version
	if ev.obj == nil {
		delete(p.cache, ev.key)
		return
	}
	p.cache[ev.key] = ev.obj
}

func (p *replica) enqueue(names []types.NamespacedName, at time.Time) {
	for _, n := range names {
		if t, ok := p.queue[n]; !ok || at.Before(t) {
			p.queue[n] = at
		}
	}
}

// shiftQueue moves every queued request's instant by a jump d of the
// clock: a workqueue's delays are durations on a monotonic clock, so a
// request due in ten seconds stays due in ten seconds whichever way the
// wall clock steps.
func (p *replica) shiftQueue(d time.Duration) {
	for n, at := range p.queue {
		p.queue[n] = at.Add(d)
	}
}

// next returns the due request that has waited longest (then by name).
func (p *replica) next(now time.Time) (types.NamespacedName, bool) {
	var best types.NamespacedName
	var bestAt time.Time
	found := false
	for n, at := range p.queue {
		if at.After(now) {
			continue
		}
		if !found || at.Before(bestAt) || (at.Equal(bestAt) && cmp.Or(cmp.Compare(n.Namespace, best.Namespace), cmp.Compare(n.Name, best.Name)) < 0) {
			best, bestAt, found = n, at, true
		}
	}
	return best, found
}

// earliest returns the earliest instant a queued request is due.
func (p *replica) earliest() (time.Time, bool) {
	var t time.Time
	for _, at := range p.queue {
		if t.IsZero() || at.Before(t) {
			t = at
		}
	}
	return t, !t.IsZero()
}

func (p *replica) cached() []*unstructured.Unstructured {
	out := make([]*unstructured.Unstructured, 0, len(p.cache))
	for _, u := range p.cache {
		out = append(out, u)
	}
	sortObjects(out)
	return out
}

// read serves a Get from the cache, noting the version seen.
func (p *replica) read(scheme *runtime.Scheme, key client.ObjectKey, obj client.Object) error {
	gvk, err := apiutil.GVKForObject(obj, scheme)
	if err != nil {
		return err
	}
	k := ObjectKey{Kind: gvk.Kind, NamespacedName: key}
	u := p.cache[k]
	if u == nil {
		return apierrors.NewNotFound(schema.GroupResource{Group: gvk.Group, Resource: strings.ToLower(gvk.Kind) + "s"}, key.Name)
	}
	p.note(u)
	return into(u, obj)
}

// list serves a List from the cache, noting the versions seen.
func (p *replica) list(scheme *runtime.Scheme, list client.ObjectList, opts ...client.ListOption) error {
	gvk, err := apiutil.GVKForObject(list, scheme)
	if err != nil {
		return err
	}
	kind := strings.TrimSuffix(gvk.Kind, "List")
	var lo client.ListOptions
	lo.ApplyOptions(opts)
	var items []*unstructured.Unstructured
	for _, u := range p.cached() {
		if u.GetKind() != kind || (lo.Namespace != "" && u.GetNamespace() != lo.Namespace) {
			continue
		}
		if lo.LabelSelector != nil && !lo.LabelSelector.Matches(labels.Set(u.GetLabels())) {
			continue
		}
		p.note(u)
		items = append(items, u)
	}
	if ul, ok := list.(*unstructured.UnstructuredList); ok {
		ul.Items = ul.Items[:0]
		for _, it := range items {
			ul.Items = append(ul.Items, *it.DeepCopy())
		}
		return nil
	}
	return p.typedList(list, items)
}

// typedList fills a typed list with deep copies of the cached objects,
// each converted from its unstructured form once per cache entry (a
// pass reads the same entries again and again; the conversion is most of
// a pass's cost).
func (p *replica) typedList(list client.ObjectList, items []*unstructured.Unstructured) error {
	v := reflect.ValueOf(list).Elem().FieldByName("Items")
	if !v.IsValid() || v.Kind() != reflect.Slice || !v.CanSet() {
		conv := make([]any, 0, len(items))
		for _, it := range items {
			conv = append(conv, it.Object)
		}
		return runtime.DefaultUnstructuredConverter.FromUnstructured(map[string]any{"items": conv}, list)
	}
	elem := v.Type().Elem()
	out := reflect.MakeSlice(v.Type(), 0, len(items))
	for _, u := range items {
		t, ok := p.typed[u]
		if !ok || t.Type().Elem() != elem {
			ptr := reflect.New(elem)
			if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, ptr.Interface()); err != nil {
				return fmt.Errorf("hostcheck: cache: %s: %w", keyOf(u), err)
			}
			t = ptr
			p.typed[u] = t
		}
		if o, ok := t.Interface().(runtime.Object); ok {
			out = reflect.Append(out, reflect.ValueOf(o.DeepCopyObject()).Elem())
			continue
		}
		out = reflect.Append(out, t.Elem())
	}
	v.Set(out)
	return nil
}

func (p *replica) note(u *unstructured.Unstructured) {
	k := keyOf(u)
	v := rv(u.GetResourceVersion())
	if v > p.seen[k] {
		p.seen[k] = v
	}
	if p.views != nil && p.viewKind(k.Kind) {
		p.look(k, u, v)
	}
}

// view is the newest version of one object an incarnation read, with
// our conditions on it and since when it has read them.
type view struct {
	rv    int64
	ours  []metav1.Condition
	since time.Time
	// wrote is the resourceVersion this incarnation's last successful
	// status write of the object produced.
	wrote int64
}

// look records a read of version v of u: a newer version replaces the
// view, and a change of our conditions restarts its time.
func (p *replica) look(k ObjectKey, u *unstructured.Unstructured, v int64) {
	w := p.views[k]
	if w == nil {
		w = &view{}
		p.views[k] = w
	}
	if v <= w.rv {
		return
	}
	ours := ourConditions(u, p.ours)
	if w.rv == 0 || !conditions.Equal(ours, w.ours) {
		w.since = p.clock()
	}
	w.rv, w.ours = v, ours
}

// ourConditions is u's status conditions of our types, in order.
func ourConditions(u *unstructured.Unstructured, ours func(kind, condType string) bool) []metav1.Condition {
	var out []metav1.Condition
	for _, c := range conditionsOf(u) {
		if ours(u.GetKind(), c.Type) {
			out = append(out, c)
		}
	}
	return out
}

func into(u *unstructured.Unstructured, obj client.Object) error {
	if out, ok := obj.(*unstructured.Unstructured); ok {
		out.Object = u.DeepCopy().Object
		return nil
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.DeepCopy().Object, obj); err != nil {
		return fmt.Errorf("hostcheck: cache: %s: %w", keyOf(u), err)
	}
	return nil
}

// requestOf is a reconcile.Request for a name.
func requestOf(n types.NamespacedName) reconcile.Request { return reconcile.Request{NamespacedName: n} }
