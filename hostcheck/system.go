package hostcheck

import (
	"context"
	"fmt"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/condengine/condengine/binding"
)

// objKey names one stored object.
type objKey struct {
	Kind string
	types.NamespacedName
}

func (k objKey) String() string { return k.Kind + " " + k.Namespace + "/" + k.Name }

func keyOf(u *unstructured.Unstructured) objKey {
	return objKey{Kind: u.GetKind(), NamespacedName: types.NamespacedName{Namespace: u.GetNamespace(), Name: u.GetName()}}
}

// expected is the engine's answer for one stored object.
type expected struct {
	// owned is the status conditions of our types, in order.
	owned []metav1.Condition
	// release says the engine decides Remove for the kind's finalizer.
	release bool
	// ok is false for an object the engine answers nothing for (not
	// ours, left out): the harness then checks nothing of its status.
	ok bool
	// pass is what one pass over the stored world writes, and
	// passRelease whether it releases the finalizer: the FinalizerLast
	// rule judges a release by them. owned and release are the answer
	// once the world has settled.
	pass        []metav1.Condition
	passRelease bool
	// due says one pass over the stored world writes the object's status
	// or changes its finalizer: the store has not settled.
	due bool
}

// system is what the harness knows of one operator: its kinds, its
// vocabulary, its worlds and edits, and the engine's answer.
type system interface {
	// kinds are the stored kinds, in the order a world creates them.
	kinds() []schema.GroupVersionKind
	// statusKinds are the kinds with a status subresource the host writes.
	statusKinds() []schema.GroupVersionKind
	scheme() *runtime.Scheme
	// manager is the field manager of the host's writes.
	manager() string
	// timed reports whether the host follows the writer policy's gap and
	// backoff (the WriterTiming rule).
	timed() bool
	// ours reports whether a condition type of kind is in our vocabulary.
	ours(kind, condType string) bool
	// silentKinds are stored kinds with a status subresource whose status
	// the engine never decides: the host must not write it.
	silentKinds() []schema.GroupVersionKind
	// finalizer is the finalizer the host manages on kind, "" for none.
	finalizer(kind string) string
	// readError is the error reads of kind fail with now (the world's
	// failing reads), nil when they work.
	readError(kind string) error
	// failing reports whether some reads fail now.
	failing() bool
	// calm ends the world's failing reads when faults and edits stop, and
	// says what it ended ("" for nothing).
	calm() string
	// collect carries out a run of the system's collector drawn by e
	// (FinOps: a charge collection run) and returns the requests its end
	// queues; nil for a system without one.
	collect(ctx context.Context, c client.Reader, e event, now time.Time) ([]types.NamespacedName, error)
	// world returns the initial objects drawn from seed.
	world(seed uint64) ([]client.Object, error)
	// prepare writes, before the host starts, what earlier writers left
	// in the world, and returns the probe results finished then.
	prepare(ctx context.Context, c client.Client) ([]binding.ProbeResult, error)
	// edit carries out a user's or another controller's change e on the
	// store, reading it through w; n counts creations for unique names.
	edit(ctx context.Context, w client.Client, e event, n int, now time.Time) error
	// requests are the requests a change of obj queues, seen through
	// cache (the mapping a host's watches make).
	requests(obj *unstructured.Unstructured, cache []*unstructured.Unstructured) []types.NamespacedName
	// expect returns the engine's answer for every stored object, with
	// the host's memory rebuilt from the world alone (see
	// docs/decisions/hostcheck.md).
	expect(objs []*unstructured.Unstructured, probes []binding.ProbeResult, now, startedAt time.Time) (map[objKey]expected, error)
	// probe returns the prober's result for a Binding generation, drawn
	// from variant (Binding only).
	probe(b *unstructured.Unstructured, generation int64, variant int) (binding.ProbeResult, bool)
}

func newSystem(s System) system {
	switch s {
	case FinOps:
		return finopsSystem{unreadable: map[string]bool{}, collector: &collector{}}
	}
	return &bindingSystem{}
}

// note is what an edit that changes no object did (reads that start or
// stop failing): the run writes it in the trace instead of a refusal.
type note string

func (n note) Error() string { return string(n) }

// appendEach appends a pointer to each of items to out.
func appendEach[T any, P interface {
	*T
	client.Object
}](out []client.Object, items []T) []client.Object {
	for i := range items {
		out = append(out, P(&items[i]))
	}
	return out
}

// conditioned is an object with status conditions.
type conditioned interface {
	GetConditions() []metav1.Condition
	SetConditions([]metav1.Condition)
}

// untouched readies a drawn world for the store as no writer of ours has
// touched it: each object gets its kind from sys's scheme and loses the
// conditions of our types (other controllers' stay), and the repeats the
// store would refuse are dropped.
func untouched(sys system, objs []client.Object) ([]client.Object, error) {
	scheme := sys.scheme()
	for _, o := range objs {
		gvk, err := apiutil.GVKForObject(o, scheme)
		if err != nil {
			return nil, fmt.Errorf("hostcheck: %w", err)
		}
		o.GetObjectKind().SetGroupVersionKind(gvk)
		if c, ok := o.(conditioned); ok {
			c.SetConditions(slices.DeleteFunc(slices.Clone(c.GetConditions()), func(x metav1.Condition) bool { return sys.ours(gvk.Kind, x.Type) }))
		}
	}
	return dedupe(objs), nil
}
