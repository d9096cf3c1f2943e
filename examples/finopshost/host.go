package finopshost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/record"
	"sigs.k8s.io/controller-runtime/pkg/client"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/examples/ctrlplan"
	"github.com/condengine/condengine/examples/internal/typedlist"
	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/subscription"
	"github.com/condengine/condengine/writeplan"
)

// FieldManager owns every status this host writes.
const FieldManager = "finops-operator"

// What the write plans of each kind the host writes declare: the field
// manager, the kind and the finalizer the host manages on it.
var (
	priceBookWrites    = writesOf(finopsv1.KindPriceBook, "")
	offeringWrites     = writesOf(finopsv1.KindOffering, finopsv1.OfferingFinalizer)
	subscriptionWrites = writesOf(finopsv1.KindSubscription, finopsv1.SubscriptionFinalizer)
)

func writesOf(kind, finalizer string) writeplan.Options {
	return writeplan.Options{FieldManager: FieldManager, Kind: writeplan.Kind{APIVersion: finopsv1.APIVersion, Kind: kind, Finalizer: finalizer}}
}

// The kinds the host reads and writes.
var (
	PriceBookGVK    = finopsv1.GroupVersion.WithKind(finopsv1.KindPriceBook)
	OfferingGVK     = finopsv1.GroupVersion.WithKind(finopsv1.KindOffering)
	SubscriptionGVK = finopsv1.GroupVersion.WithKind(finopsv1.KindSubscription)
	configMapGVK    = schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}
)

// Host reconciles the FinOps kinds of one cluster.
type Host struct {
	client    client.Client
	namespace string
	// Interval is the time between passes under Start; default 10 s.
	Interval time.Duration
	// MaxRetryDelay caps the backoff of an object that asks for a retry
	// pass after pass; default 5 minutes.
	MaxRetryDelay time.Duration
	mu            sync.Mutex
	recorder      record.EventRecorder
	// retries is the backoff of each object whose last outcome asked for
	// a retry, by UID.
	retries map[types.UID]retry
	// collection is the last charge collection run, nil before the first.
	collection *subscription.Collection
	// reads is the backoff of passes that meet a failed read, in a row.
	reads retry
}

// retry is one object's backoff: the retries it asked for in a row, when
// it is due again, and the wait that instant was set with.
type retry struct {
	n    int
	at   time.Time
	wait time.Duration
}

// New returns a host writing through c; operatorNamespace is where the
// OpenCost pricing ConfigMap lives.
func New(c client.Client, operatorNamespace string) (*Host, error) {
	if c == nil {
		return nil, errors.New("finopshost: nil client")
	}
	if operatorNamespace == "" {
		return nil, errors.New("finopshost: the operator namespace is required")
	}
	return &Host{client: c, namespace: operatorNamespace, Interval: 10 * time.Second, MaxRetryDelay: 5 * time.Minute,
		retries: map[types.UID]retry{}}, nil
}

// WithEventRecorder sets the recorder that receives one Event per
// condition transition a status write makes (see
// ctrlplan.RecordTransitions); it returns h. Without one, no Event is
// recorded.
func (h *Host) WithEventRecorder(rec record.EventRecorder) *Host {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.recorder = rec
	return h
}

// SetCollection hands the host the last SubscriptionChargeCollection
// run (nil: none yet). Every pass from then on evaluates with it, until
// a newer run replaces it: the engine releases a deleted Subscription's
// finalizer only on a run that settled its charges, and the status that
// explains the release is written before the finalizer goes. A pass
// that applies the same run again changes nothing it already wrote.
func (h *Host) SetCollection(run *subscription.Collection) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.collection = run
}

// NeedLeaderElection makes a manager run the host only on the leader.
func (h *Host) NeedLeaderElection() bool { return true }

// Start runs RunOnce every Interval until ctx ends.
func (h *Host) Start(ctx context.Context) error {
	t := time.NewTicker(h.Interval)
	defer t.Stop()
	for {
		_, _ = h.RunOnce(ctx, time.Now())
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// Report says what one pass did.
type Report struct {
	// Written lists "Kind namespace/name" of every status written, and
	// "ConfigMap namespace/name" when the pricing document was.
	Written []string
	// Finalizers lists "Kind namespace/name +finalizer" or "-finalizer".
	Finalizers []string
	// Errors are failed writes, by object. A write plan stops at its
	// first failed request: the next pass reads the object again and
	// plans again.
	Errors map[string]error
	// Retry reports an outcome that asks for another pass (a failed read,
	// a deletion held, an Offering not ready): pass again, not before
	// RetryAt, the earliest instant of Retries.
	Retry   bool
	RetryAt time.Time
	// Retries holds, for each object that asked for a retry, the instant
	// it is due again, by namespace and name (the key of a reconcile
	// request; objects of two kinds with one name share the earlier).
	// It is the engine's RetryAt for the first retry in a row of an
	// object, and doubles from conditions.RetryDelay with each pass that
	// finds the object still asking, up to the host's MaxRetryDelay.
	Retries map[types.NamespacedName]time.Time
	// ReadRetryAt is set when a list of the pass failed (PriceBooks or
	// Offerings): the engine leaves the objects of that kind out of its
	// answer, so no outcome asks for them, and the host comes back on its
	// own at this instant, which backs off like an object's retry while
	// the lists keep failing; every request name gets it. A failed read
	// of one object (a target) is the engine's to retry: its outcome
	// asks. Retry and RetryAt count it.
	ReadRetryAt time.Time
}

// RequeueAfter is the wait before the next pass that Retry asks for, for
// a reconciler's ctrl.Result: 0 when no retry is due, and never 0 when
// one is (controller-runtime reads 0 as "no requeue").
func (r Report) RequeueAfter(now time.Time) time.Duration {
	return (&conditions.Outcome{Retry: r.Retry, RetryAt: r.RetryAt}).RequeueAfter(now)
}

// RequeueAfterOf is the wait before the next reconcile of one request
// name: 0 when no object of that name asked for a retry, and never 0
// when one did. A reconciler that runs a whole pass per request returns
// it, so that only the objects that asked come back.
func (r Report) RequeueAfterOf(name types.NamespacedName, now time.Time) time.Duration {
	at, ok := r.Retries[name]
	if !r.ReadRetryAt.IsZero() && (!ok || r.ReadRetryAt.Before(at)) {
		at, ok = r.ReadRetryAt, true
	}
	return (&conditions.Outcome{Retry: ok, RetryAt: at}).RequeueAfter(now)
}

// Changed reports whether the pass wrote anything; a family has settled
// when a pass changes nothing.
func (r Report) Changed() bool { return len(r.Written)+len(r.Finalizers) > 0 }

// snapshot reads everything one pass evaluates.
func (h *Host) snapshot(ctx context.Context, now time.Time) (finops.Snapshot, error) {
	s := finops.Snapshot{Now: now, Collection: h.collection}
	var err error
	// A book or Offering list that fails is a failed read the engine
	// weighs: the kind's own objects are left out of the pass, and every
	// Subscription's Offering counts as unread (it then waits, and never
	// reads its Offering as gone).
	if s.PriceBooks, err = listKind(ctx, h.client, PriceBookGVK, func(l *finopsv1.PriceBookList) []finopsv1.PriceBook { return l.Items }); err != nil {
		s.Failures = append(s.Failures, finops.Failure{Kind: PriceBookGVK.Kind})
	}
	s.Offerings, err = listKind(ctx, h.client, OfferingGVK, func(l *finopsv1.OfferingList) []finopsv1.Offering { return l.Items })
	offeringsFailed := err != nil
	if offeringsFailed {
		s.Failures = append(s.Failures, finops.Failure{Kind: OfferingGVK.Kind})
	}
	if s.Subscriptions, err = listKind(ctx, h.client, SubscriptionGVK, func(l *finopsv1.SubscriptionList) []finopsv1.Subscription { return l.Items }); err != nil {
		return s, err
	}
	for i := range s.Subscriptions {
		x := &s.Subscriptions[i]
		if ref := x.Spec.OfferingRef; offeringsFailed {
			s.Failures = append(s.Failures, finops.Failure{Kind: OfferingGVK.Kind, Namespace: ref.Namespace, Name: ref.Name})
		}
		if x.Spec.Lifecycle == nil || x.Spec.Lifecycle.TargetRef == nil {
			continue
		}
		ref := x.Spec.Lifecycle.TargetRef
		obj := finops.ObjectRef{APIVersion: ref.APIVersion, Kind: ref.Kind, Namespace: ref.Namespace, Name: ref.Name}
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(schema.FromAPIVersionAndKind(ref.APIVersion, ref.Kind))
		switch err := h.client.Get(ctx, types.NamespacedName{Namespace: ref.Namespace, Name: ref.Name}, u); {
		case err == nil:
			s.Objects = append(s.Objects, obj)
		case apierrors.IsNotFound(err):
		default:
			s.Failures = append(s.Failures, finops.Failure{APIVersion: ref.APIVersion, Kind: ref.Kind, Namespace: ref.Namespace, Name: ref.Name})
		}
	}
	cm := &unstructured.Unstructured{}
	cm.SetGroupVersionKind(configMapGVK)
	switch err := h.client.Get(ctx, types.NamespacedName{Namespace: h.namespace, Name: finops.PricingConfigMap}, cm); {
	case err == nil:
		if doc, ok, _ := unstructured.NestedString(cm.Object, "data", finops.PricingKey); ok {
			if err := json.Unmarshal([]byte(doc), &s.PricingDocument); err != nil {
				return s, fmt.Errorf("ConfigMap %s/%s: data[%q]: %w", h.namespace, finops.PricingConfigMap, finops.PricingKey, err)
			}
		}
	case apierrors.IsNotFound(err):
	default:
		return s, err
	}
	return s, nil
}

// listKind reads every object of one kind: as typed objects when the
// client's scheme knows the kind (a cache of typed objects converts each
// one once, when it arrives), otherwise through unstructured lists
// converted on every read.
func listKind[T, L any, PL interface {
	*L
	client.ObjectList
}](ctx context.Context, c client.Client, gvk schema.GroupVersionKind, items func(*L) []T) ([]T, error) {
	if sc := c.Scheme(); sc == nil || !sc.Recognizes(gvk) {
		return typedlist.List[T](ctx, c, gvk)
	}
	var l L
	if err := c.List(ctx, PL(&l)); err != nil {
		return nil, fmt.Errorf("list %s: %w", gvk.Kind, err)
	}
	return items(&l), nil
}

// RunOnce reconciles every object once at now and writes what changed.
func (h *Host) RunOnce(ctx context.Context, now time.Time) (Report, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var rep Report
	s, err := h.snapshot(ctx, now)
	if err != nil {
		return rep, err
	}
	r, err := finops.Evaluate(s)
	if err != nil {
		return rep, err
	}
	fail := func(what string, err error) {
		if rep.Errors == nil {
			rep.Errors = map[string]error{}
		}
		rep.Errors[what] = err
	}
	// Outcomes come sorted, not in list order: each is matched to the
	// object it was computed from by UID, for the resourceVersion its
	// write plan is guarded by.
	books := byUID(s.PriceBooks)
	for i := range r.PriceBooks.Books {
		o := &r.PriceBooks.Books[i]
		if b := books[o.UID]; b != nil {
			h.carry(ctx, b, &o.Outcome, o.Status, priceBookWrites, &rep, fail)
		}
	}
	if r.PriceBooks.DocumentChanged && r.PriceBooks.Document != nil {
		h.writeDocument(ctx, r.PriceBooks.Document, &rep, fail)
	}
	offs := byUID(s.Offerings)
	for i := range r.Offerings.Offerings {
		o := &r.Offerings.Offerings[i]
		if x := offs[o.UID]; x != nil {
			h.carry(ctx, x, &o.Outcome, o.Status, offeringWrites, &rep, fail)
		}
	}
	listed := byUID(s.Subscriptions)
	for i := range r.Subscriptions.Subscriptions {
		o := &r.Subscriptions.Subscriptions[i]
		if x := listed[o.UID]; x != nil {
			h.carry(ctx, x, &o.Outcome, o.Status, subscriptionWrites, &rep, fail)
		}
	}
	h.backoff(now, r, &rep)
	h.readBackoff(now, slices.ContainsFunc(s.Failures, func(f finops.Failure) bool { return f.Name == "" }), &rep)
	return rep, nil
}

// readBackoff sets the report's ReadRetryAt when a list of the pass
// failed: conditions.RetryDelay after the first such pass in a row, twice
// the last wait after each later one at or after its due instant, up to
// MaxRetryDelay. A pass whose reads all worked forgets the backoff.
func (h *Host) readBackoff(now time.Time, failed bool, rep *Report) {
	if !failed {
		h.reads = retry{}
		return
	}
	h.reads = h.next(h.reads, now, time.Time{})
	rep.ReadRetryAt = h.reads.at
	if !rep.Retry || h.reads.at.Before(rep.RetryAt) {
		rep.Retry, rep.RetryAt = true, h.reads.at
	}
}

// next is b after one more pass that asks for a retry at now: unchanged
// before its due instant, else one more in a row and due again after
// conditions.RetryDelay doubled per earlier one (at most MaxRetryDelay),
// or at first, the later of that and first. A clock that went back
// does not stretch a wait: a due instant further away than the wait it
// was set with is set again from now.
func (h *Host) next(b retry, now, first time.Time) retry {
	if b.n > 0 && now.Before(b.at) {
		if b.at.Sub(now) > b.wait {
			b.at = now.Add(b.wait)
		}
		return b
	}
	b.n++
	b.wait = min(conditions.RetryDelay<<min(b.n-1, 20), max(h.MaxRetryDelay, conditions.RetryDelay))
	b.at = now.Add(b.wait)
	if b.n == 1 && first.After(b.at) {
		b.at, b.wait = first, first.Sub(now)
	}
	return b
}

// backoff fills the report's retries: an object asking for a retry for
// the first time in a row is due at the engine's RetryAt; one a pass at
// or after its due instant finds still asking waits twice as long as
// the last time (a pass before it, started by an event, leaves it
// waiting); one that no longer asks forgets its backoff.
func (h *Host) backoff(now time.Time, r finops.Result, rep *Report) {
	asked := map[types.UID]bool{}
	note := func(o *conditions.Outcome) {
		if !o.Retry {
			return
		}
		asked[o.UID] = true
		b := h.next(h.retries[o.UID], now, o.RetryAt)
		h.retries[o.UID] = b
		name := types.NamespacedName{Namespace: o.Namespace, Name: o.Name}
		if at, ok := rep.Retries[name]; !ok || b.at.Before(at) {
			if rep.Retries == nil {
				rep.Retries = map[types.NamespacedName]time.Time{}
			}
			rep.Retries[name] = b.at
		}
		if !rep.Retry || b.at.Before(rep.RetryAt) {
			rep.Retry, rep.RetryAt = true, b.at
		}
	}
	for i := range r.PriceBooks.Books {
		note(&r.PriceBooks.Books[i].Outcome)
	}
	for i := range r.Offerings.Offerings {
		note(&r.Offerings.Offerings[i].Outcome)
	}
	for i := range r.Subscriptions.Subscriptions {
		note(&r.Subscriptions.Subscriptions[i].Outcome)
	}
	maps.DeleteFunc(h.retries, func(uid types.UID, _ retry) bool { return !asked[uid] })
}

// byUID indexes listed objects by UID.
func byUID[T any, P interface {
	*T
	GetUID() types.UID
}](list []T) map[types.UID]*T {
	m := make(map[types.UID]*T, len(list))
	for i := range list {
		m[P(&list[i]).GetUID()] = &list[i]
	}
	return m
}

// object is what a write plan needs of the object read and Carry of the
// object written: every FinOps API type.
type object interface {
	client.Object
	writeplan.Object
}

// carry carries out the outcome's write plan (writeplan.For): the
// removal of a condition type of ours another manager co-owns, the
// server-side apply of the kind's status with only its own condition
// types (o.Owned), then the finalizer change, in that order, each request
// guarded by a resourceVersion, so that nothing computed for a deleted
// object lands on one created again under the same name, and a finalizer
// is never released before the status that explains it is stored. After
// a plan carried out whole, it records one Event per condition
// transition.
func (h *Host) carry(ctx context.Context, obj object, o *conditions.Outcome, status any, writes writeplan.Options, rep *Report, fail func(string, error)) {
	what := o.Kind + " " + obj.GetNamespace() + "/" + obj.GetName()
	plan, err := writeplan.For(obj, o, status, writes)
	if err != nil {
		fail(what, err)
		return
	}
	if plan.Empty() {
		return
	}
	// Carry fills the object it is given from the responses; obj stays
	// the object as read, for the transitions.
	if err := ctrlplan.Carry(ctx, h.client, obj.DeepCopyObject().(client.Object), plan); err != nil {
		fail(what, err)
		return
	}
	for _, r := range plan.Requests {
		switch r.Step {
		case writeplan.StepApplyStatus:
			rep.Written = append(rep.Written, what)
		case writeplan.StepAddFinalizer:
			rep.Finalizers = append(rep.Finalizers, what+" +finalizer")
		case writeplan.StepRemoveFinalizer:
			rep.Finalizers = append(rep.Finalizers, what+" -finalizer")
		}
	}
	if o.Write {
		ctrlplan.RecordTransitions(h.recorder, obj, writeplan.Transitions(obj.GetConditions(), o.Conditions))
	}
}

func (h *Host) writeDocument(ctx context.Context, doc map[string]string, rep *Report, fail func(string, error)) {
	what := "ConfigMap " + h.namespace + "/" + finops.PricingConfigMap
	// PricingData escapes what the API server's YAML reader refuses: a
	// percent book's rates are its own text and may hold anything.
	data, err := finops.PricingData(doc)
	if err != nil {
		fail(what, err)
		return
	}
	u := &unstructured.Unstructured{Object: map[string]any{"data": map[string]any{finops.PricingKey: data}}}
	u.SetGroupVersionKind(configMapGVK)
	u.SetNamespace(h.namespace)
	u.SetName(finops.PricingConfigMap)
	if err := h.client.Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner(FieldManager), client.ForceOwnership); err != nil {
		fail(what, err)
		return
	}
	rep.Written = append(rep.Written, what)
}
