package hostcheck

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/condengine/condengine/conditions"
)

// System is what the harness knows of one operator: its kinds, how its
// host writes them, and, for each schedule, a World to run the host in.
// It is a plain value, like system.System: Binding and FinOps return the
// seed systems, FromSystem builds one from a system.System of a single
// kind, and an author of several kinds declares one of their own. Name,
// Kinds and NewWorld are required; every other field may be left empty.
type System struct {
	// Name names the system in a counterexample ("Binding host breaks
	// ...").
	Name string
	// Kinds are the kinds the harness stores, in the order a world
	// creates them. At least one has Status set.
	Kinds []Kind
	// Scheme knows the kinds the host reads and writes typed; a kind it
	// does not know is stored, and served to the host, unstructured. nil
	// is an empty scheme. Give it the Go type of every kind with Status:
	// the in-memory store (controller-runtime's fake client) keeps the
	// resourceVersion of a server-side apply only for a kind with one.
	Scheme *runtime.Scheme
	// FieldManager is the field manager of the host's status writes: the
	// OthersUntouched rule checks that it co-owns no other writer's
	// condition.
	FieldManager string
	// TypeConverter returns the server-side apply type converter of the
	// kinds (crd.TypeConverterFrom over their CRDs), so that the store
	// keys status.conditions by type as the API server does; nil deduces
	// a schema from each object, which makes the list atomic, so that any
	// apply of ours takes the other writers' conditions away.
	TypeConverter func() (managedfields.TypeConverter, error)
	// WriterPolicy says the host follows binding/policy's status writer:
	// the WriterTiming rule holds its writes to the policy's gap, backoff
	// and fight spacing, and schedules draw the Fights fault kind.
	WriterPolicy bool
	// Requests returns the requests a change of obj queues, given the
	// replica's cache: the mapping a host's watches make. nil queues the
	// object's own name and every cached object of a Status kind in its
	// namespace (in every namespace for a cluster-scoped object): a
	// superset of what a host that watches its dependents gets.
	Requests func(obj *unstructured.Unstructured, cache []*unstructured.Unstructured) []types.NamespacedName
	// NewWorld draws the world of one schedule from seed: the same seed
	// gives the same world. It is called once per run of a schedule, so
	// the World may keep what happens in it.
	NewWorld func(seed uint64) (*World, error)

	// err is why FromSystem could not adapt the value it was given.
	err error
}

// Kind is one kind the harness stores, and what the host does with it.
type Kind struct {
	schema.GroupVersionKind
	// Status says the host writes the kind's status: every such write is
	// judged, and Settles and Quiet are judged on its objects.
	Status bool
	// ForeignStatus says the kind has a status subresource that other
	// writers own (a job's record of its runs): a status write of the
	// host breaks OthersUntouched.
	ForeignStatus bool
	// Vocabulary holds our condition types on the kind; nil when none is
	// ours.
	Vocabulary *conditions.Vocabulary
	// Finalizer is the finalizer the host manages on the kind, "" for
	// none: its release is judged by FinalizerLast.
	Finalizer string
}

// World is one schedule's world: the objects it starts with, what
// changes them, what the host observes besides them, and the engine's
// answer. Objects and Expect are required; a nil function does nothing
// (reads never fail, no observer runs, no change is made).
type World struct {
	// Start is when the virtual clock starts; zero is 2026-11-30
	// 10:00:00 UTC.
	Start time.Time
	// Objects are the objects the store starts with. The harness's
	// shrinker drops them one by one, so each must make sense without
	// the others (a reference may point to nothing).
	Objects []client.Object
	// Prepare writes, before the host starts, what earlier writers left
	// in the world (an earlier leader's statuses), through c, a client
	// of the store.
	Prepare func(ctx context.Context, c client.Client) error
	// Change carries out a change e (Edit, Delete, Create, Foreign,
	// Fight) on the store through c and says, in a line for the trace,
	// what it did ("" for nothing to say). An error is a change the store
	// refused: the trace shows it and the schedule goes on. The harness
	// records what changed by listing the store before and after.
	Change func(ctx context.Context, c client.Client, e Event) (string, error)
	// Observe carries out a step of the system's observer (ObserveStart:
	// a prober starts a pass; ObserveEnd: its results arrive, or a
	// collector runs), reading the store through c. It returns the
	// event's line for the trace and the requests its results queue on
	// every replica.
	Observe func(ctx context.Context, c client.Reader, e Event) (string, []types.NamespacedName, error)
	// Finish runs when faults and edits stop: the observer's last step
	// (a prober ends a pass for every object, a collector runs once
	// more). It returns what happened, for the trace, and the requests
	// it queues on the leader.
	Finish func(ctx context.Context, c client.Reader, now time.Time) (string, []types.NamespacedName, error)
	// Observed returns what the host has observed so far besides the
	// objects (Env.Observed hands it to the host, Expect gets it back).
	// Neither the host nor the harness changes the value, so it must not
	// change after it is returned: a change of the observations makes a
	// new one.
	Observed func() any
	// ReadError is the error the host's reads of kind fail with now, nil
	// while they work.
	ReadError func(kind string) error
	// Recover ends the failing reads when faults and edits stop and says
	// what it ended ("" for nothing); no event tells the host.
	Recover func() string
	// Changed is called after every change of the store, with the store:
	// a system whose answer depends on the states the world went through
	// (the broker's memory of served generations) keeps them here.
	Changed func(ctx context.Context, c client.Reader, now time.Time)
	// MayGoBack reports whether our condition c of the stored object obj
	// may now carry an observedGeneration below the one it had, which
	// GenerationForward otherwise refuses: a condition that reports an
	// observation of an older generation of the object. nil: none may.
	MayGoBack func(obj *unstructured.Unstructured, c metav1.Condition) bool
	// Expect returns the engine's answer for the stored objects (sorted
	// by kind, namespace and name), given what was observed, the time and
	// when the leader started.
	Expect func(objs []*unstructured.Unstructured, observed any, now, startedAt time.Time) (Expected, error)
	// Pass, when set, is the engine's answer for one pass of a host over
	// what it could read; the WriteAnswer rule holds every status write
	// to it. nil judges the writes only by the other rules.
	Pass func(v PassView) (PassAnswer, error)
	// ReadObjectError, when set, is the error a Get of one object fails
	// with now, in place of ReadError's (a target a Subscription names
	// fails while the pricing ConfigMap of the same kind answers); lists
	// still go by ReadError.
	ReadObjectError func(kind, namespace, name string) error
}

// Op is what an Event does.
type Op int

// The events a system carries out; the others (reconciles, deliveries,
// faults, time) are the harness's own.
const (
	// Edit: a user changes an object's spec (the generation moves).
	Edit Op = iota + 1
	// Delete: a user deletes an object.
	Delete
	// Create: a user creates an object.
	Create
	// Foreign: another controller writes a condition of its own, or a
	// person edits one of ours by hand.
	Foreign
	// Fight: a round of a fight over one of our conditions of the
	// contested object (Target), by a person or a rival controller
	// (drawn only for a system with WriterPolicy).
	Fight
	// ObserveStart: the system's observer starts a pass (a prober).
	ObserveStart
	// ObserveEnd: the observer's results arrive (a probe pass ends, a
	// charge collector runs).
	ObserveEnd
)

// Event is one step of a schedule that the system carries out. Target
// and Variant are drawn from 0 to 7, and the system reads them modulo
// what it has; an event whose target is gone does nothing, so that any
// part of a schedule is a schedule (the shrinker relies on it).
type Event struct {
	Op Op
	// Target picks the object; Variant picks what happens to it.
	Target, Variant int
	// Late is set on an ObserveEnd when the schedule draws LateProbes
	// and this one is late: the oldest pass ends even though its object
	// changed since it started.
	Late bool
	// Created counts the schedule's creations so far, this one
	// included: a name made from it is new.
	Created int
	// Now is the virtual clock.
	Now time.Time
}

// ObjectKey names one stored object.
type ObjectKey struct {
	Kind string
	types.NamespacedName
}

func (k ObjectKey) String() string { return k.Kind + " " + k.Namespace + "/" + k.Name }

// Expected is the engine's answer for a stored world.
type Expected struct {
	// Objects holds the answer for each object of a Status kind the
	// engine answers for; the harness judges nothing of an object left
	// out.
	Objects map[ObjectKey]Answer
	// Rounds is how many evaluations (or rounds of writes) the engine
	// needs from the stored world to its fixpoint: the settling budget
	// gives the host 2 × (Rounds + 1) rounds.
	Rounds int
}

// Answer is the engine's answer for one stored object.
type Answer struct {
	// Pass is our conditions one pass over the stored world writes (or
	// keeps), in order, and PassRelease whether that pass releases the
	// kind's finalizer: FinalizerLast judges a release by them.
	Pass        []metav1.Condition
	PassRelease bool
	// Due says that pass still writes the object's status or changes its
	// finalizer: the world has not settled.
	Due bool
	// Settled is our conditions once a host has settled the world, and
	// Release whether the settled world releases the finalizer: Settles
	// and Quiet judge the store by them.
	Settled []metav1.Condition
	Release bool
	// Judged is false when the settled answer depends on what the harness
	// cannot know (which states a host happened to see): Settles then
	// leaves the object alone.
	Judged bool
}

// validate reports what makes s unusable.
func (s *System) validate() error {
	if s == nil {
		return errors.New("hostcheck: Options.System is nil; set hostcheck.Binding(), hostcheck.FinOps() or hostcheck.FromSystem(...)")
	}
	if s.err != nil {
		return s.err
	}
	var errs []error
	if s.Name == "" {
		errs = append(errs, errors.New("the Name is empty"))
	}
	if s.NewWorld == nil {
		errs = append(errs, errors.New("NewWorld is nil"))
	}
	if !slices.ContainsFunc(s.Kinds, func(k Kind) bool { return k.Status }) {
		errs = append(errs, errors.New("no kind has Status set: the host writes nothing the harness judges"))
	}
	seen := map[string]bool{}
	for _, k := range s.Kinds {
		if k.Kind == "" || k.Version == "" {
			errs = append(errs, fmt.Errorf("a kind has no kind or version (%v)", k.GroupVersionKind))
		}
		if seen[k.Kind] {
			errs = append(errs, fmt.Errorf("kind %s is listed twice", k.Kind))
		}
		seen[k.Kind] = true
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("hostcheck: system %q: %w", s.Name, err)
	}
	return nil
}

// harnessSystem is a System as a run reads it: the kinds indexed, the
// scheme and the type converter made once.
type harnessSystem struct {
	*System
	scheme *runtime.Scheme
	tc     managedfields.TypeConverter
	byKind map[string]*Kind
	gvks   []schema.GroupVersionKind
	// status are the Status kinds, subresource the kinds with a status
	// subresource (Status and ForeignStatus).
	status, subresource []schema.GroupVersionKind
}

func newHarnessSystem(s *System) (*harnessSystem, error) {
	if err := s.validate(); err != nil {
		return nil, err
	}
	h := &harnessSystem{System: s, scheme: s.Scheme, byKind: map[string]*Kind{}}
	if h.scheme == nil {
		h.scheme = runtime.NewScheme()
	}
	if s.TypeConverter != nil {
		tc, err := s.TypeConverter()
		if err != nil {
			return nil, fmt.Errorf("hostcheck: system %q: %w", s.Name, err)
		}
		h.tc = tc
	}
	for i := range s.Kinds {
		k := &s.Kinds[i]
		h.byKind[k.Kind] = k
		h.gvks = append(h.gvks, k.GroupVersionKind)
		if k.Status {
			h.status = append(h.status, k.GroupVersionKind)
		}
		if k.Status || k.ForeignStatus {
			h.subresource = append(h.subresource, k.GroupVersionKind)
		}
	}
	return h, nil
}

// ours reports whether a condition type of kind is in our vocabulary.
func (h *harnessSystem) ours(kind, condType string) bool {
	k := h.byKind[kind]
	return k != nil && k.Vocabulary != nil && k.Vocabulary.Has(condType)
}

// finalizer is the finalizer the host manages on kind, "" for none.
func (h *harnessSystem) finalizer(kind string) string {
	if k := h.byKind[kind]; k != nil {
		return k.Finalizer
	}
	return ""
}

// isStatus reports whether the host writes the status of gvk's objects.
func (h *harnessSystem) isStatus(gvk schema.GroupVersionKind) bool {
	k := h.byKind[gvk.Kind]
	return k != nil && k.Status && k.GroupVersionKind == gvk
}

// isForeign reports whether gvk's status is other writers' alone.
func (h *harnessSystem) isForeign(gvk schema.GroupVersionKind) bool {
	k := h.byKind[gvk.Kind]
	return k != nil && k.ForeignStatus && k.GroupVersionKind == gvk
}

// requests are the requests a change of obj queues.
func (h *harnessSystem) requests(obj *unstructured.Unstructured, cache []*unstructured.Unstructured) []types.NamespacedName {
	if h.Requests != nil {
		return h.Requests(obj, cache)
	}
	out := []types.NamespacedName{{Namespace: obj.GetNamespace(), Name: obj.GetName()}}
	for _, c := range cache {
		k := h.byKind[c.GetKind()]
		if k == nil || !k.Status || (obj.GetNamespace() != "" && c.GetNamespace() != obj.GetNamespace()) {
			continue
		}
		if n := (types.NamespacedName{Namespace: c.GetNamespace(), Name: c.GetName()}); n != out[0] {
			out = append(out, n)
		}
	}
	return out
}

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
// touched it: each object gets its kind from the scheme and loses the
// conditions of our types (ours reports them; other controllers' stay),
// and the repeats the store would refuse are dropped.
func untouched(scheme *runtime.Scheme, ours func(kind, condType string) bool, objs []client.Object) ([]client.Object, error) {
	for _, o := range objs {
		gvk, err := apiutil.GVKForObject(o, scheme)
		if err != nil {
			return nil, fmt.Errorf("hostcheck: %w", err)
		}
		o.GetObjectKind().SetGroupVersionKind(gvk)
		switch c := o.(type) {
		case conditioned:
			c.SetConditions(slices.DeleteFunc(slices.Clone(c.GetConditions()), func(x metav1.Condition) bool { return ours(gvk.Kind, x.Type) }))
		case *unstructured.Unstructured:
			if conds, ok, _ := unstructured.NestedSlice(c.Object, "status", "conditions"); ok {
				kept := slices.DeleteFunc(conds, func(x any) bool {
					m, ok := x.(map[string]any)
					t, _ := m["type"].(string)
					return ok && ours(gvk.Kind, t)
				})
				if err := unstructured.SetNestedSlice(c.Object, kept, "status", "conditions"); err != nil {
					return nil, fmt.Errorf("hostcheck: %w", err)
				}
			}
		}
	}
	return dedupe(objs), nil
}

// dedupe keeps the first object of each kind and name: generators
// repeat UIDs and names now and then, which a store refuses.
func dedupe(objs []client.Object) []client.Object {
	seen := map[string]bool{}
	out := objs[:0]
	for _, o := range objs {
		k := o.GetObjectKind().GroupVersionKind().Kind + "/" + o.GetNamespace() + "/" + o.GetName()
		if seen[k] || seen["uid/"+string(o.GetUID())] {
			continue
		}
		seen[k], seen["uid/"+string(o.GetUID())] = true, true
		out = append(out, o)
	}
	return out
}
