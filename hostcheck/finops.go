package hostcheck

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"
	"sigs.k8s.io/controller-runtime/pkg/client"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/config/crd"
	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/finops/finopstest"
	"github.com/condengine/condengine/internal/safejson"
	"github.com/condengine/condengine/offering"
	"github.com/condengine/condengine/pricebook"
	"github.com/condengine/condengine/subscription"
	st "github.com/condengine/condengine/subscription/subscriptiontest"
)

// FinOpsNamespace is the operator namespace of the FinOps system: the
// harness reads the OpenCost pricing ConfigMap (finops.PricingConfigMap)
// there, so a FinOps host under the harness writes it there too.
const FinOpsNamespace = "finops-system"

// The largest world drawn: the generator's first books and
// Subscriptions (its Offerings all stay).
const (
	maxBooks         = 3
	maxSubscriptions = 6
)

// finopsManager is the FinOps operator's documented field manager.
const finopsManager = "finops-operator"

var (
	priceBookGVK    = finopsv1.GroupVersion.WithKind(finopsv1.KindPriceBook)
	offeringGVK     = finopsv1.GroupVersion.WithKind(finopsv1.KindOffering)
	subscriptionGVK = finopsv1.GroupVersion.WithKind(finopsv1.KindSubscription)
	costJobGVK      = finopsv1.GroupVersion.WithKind(finopsv1.KindCostJob)
	providerGVK     = finopsv1.GroupVersion.WithKind(finopsv1.KindFinOpsProvider)
	configMapGVK    = corev1.SchemeGroupVersion.WithKind("ConfigMap")

	finopsKinds       = []schema.GroupVersionKind{configMapGVK, priceBookGVK, offeringGVK, subscriptionGVK, costJobGVK, providerGVK}
	finopsStatusKinds = []schema.GroupVersionKind{priceBookGVK, offeringGVK, subscriptionGVK}
)

// FinOps returns the FinOps operator as a System: PriceBooks, Offerings
// and Subscriptions, the ConfigMaps Subscriptions name as targets (and
// the pricing document lives in, in FinOpsNamespace), and CostJobs and
// FinOpsProviders, whose status the host never writes. The host writes
// the status of the first three under "finops-operator", the Offering
// and Subscription finalizers, and the OpenCost pricing ConfigMap. Reads
// of PriceBooks, Offerings, Subscriptions or ConfigMaps fail for a while
// when the world says so, and so do Gets of the targets alone (the
// pricing ConfigMap still answers). Its observer is the charge
// collector: a SubscriptionChargeCollection run where a Binding schedule
// ends a probe pass, a late run for the hour before where one starts,
// and once more when faults and edits stop; Env.Observed returns the
// last run (FinOpsCollection). Each call returns a new value.
func FinOps() *System {
	scheme := finopsScheme()
	return &System{
		Name: "FinOps",
		Kinds: []Kind{
			{GroupVersionKind: configMapGVK},
			{GroupVersionKind: priceBookGVK, Status: true, Vocabulary: pricebook.Vocabulary},
			{GroupVersionKind: offeringGVK, Status: true, Vocabulary: offering.Vocabulary, Finalizer: finopsv1.OfferingFinalizer},
			{GroupVersionKind: subscriptionGVK, Status: true, Vocabulary: subscription.Vocabulary, Finalizer: finopsv1.SubscriptionFinalizer},
			// A CostJob's status is its runs' record, a FinOpsProvider's
			// is declared and never written.
			{GroupVersionKind: costJobGVK, ForeignStatus: true},
			{GroupVersionKind: providerGVK, ForeignStatus: true},
		},
		Scheme:        scheme,
		FieldManager:  finopsManager,
		TypeConverter: crd.TypeConverter,
		Requests:      finopsRequests,
		NewWorld:      func(seed uint64) (*World, error) { return newFinOpsWorld(scheme, seed) },
	}
}

// FinOpsCollection returns the last SubscriptionChargeCollection run of
// the FinOps system, nil before the first (and for a host of another
// system). A host hands it to every pass as finops.Snapshot.Collection
// until a newer run replaces it: the run stands for what the collector
// recorded, and the engine releases a deleted Subscription's finalizer
// only on a run that settled its charges. A run's end queues every
// object with a status, as a finished probe queues its Binding.
func FinOpsCollection(env Env) *subscription.Collection {
	c, _ := ObservedAs[*subscription.Collection](env)
	return c
}

// finopsWorld is one schedule's FinOps world: the kinds whose reads fail
// now (unreadable), and the charge collector's last run (last, nil
// before the first), handed to the host through Env.Observed and to
// every evaluation of the oracle.
type finopsWorld struct {
	unreadable map[string]bool
	last       *subscription.Collection
}

// lastRun is a copy of the last run, nil before the first.
func (s *finopsWorld) lastRun() *subscription.Collection {
	if s.last == nil {
		return nil
	}
	c := *s.last
	c.Results = slices.Clone(c.Results)
	return &c
}

// The kinds whose reads the world can make fail: the snapshot's
// failing-read inputs a host meets as errors of its List or Get.
// Drawn by Target modulo their number: targets, books and Offerings
// two times in eight, Subscriptions and ConfigMaps once.
var readKinds = []string{targetsKind, finopsv1.KindPriceBook, finopsv1.KindOffering, finopsv1.KindSubscription, "ConfigMap"}

func (s *finopsWorld) readError(kind string) error {
	if kind == "ConfigMap" && s.unreadable[targetsKind] {
		return s.failed(kind)
	}
	if !s.unreadable[kind] {
		return nil
	}
	return s.failed(kind)
}

func (s *finopsWorld) failed(kind string) error {
	return apierrors.NewServiceUnavailable("reading " + kind + "s failed: the server is unavailable")
}

func (s *finopsWorld) recover() string {
	if len(s.unreadable) == 0 {
		return ""
	}
	clear(s.unreadable)
	return "reads of every kind work again"
}

// toggleRead makes reads of one kind start failing, or stop.
func (s *finopsWorld) toggleRead(target int) string {
	kind := readKinds[target%len(readKinds)]
	if s.unreadable[kind] {
		delete(s.unreadable, kind)
		return "reads of " + kind + "s work again"
	}
	s.unreadable[kind] = true
	return "reads of " + kind + "s fail from now on (the server is unavailable)"
}

func finopsScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	if err := errors.Join(finopsv1.AddToScheme(s), corev1.AddToScheme(s)); err != nil {
		panic(err) // a registration of known types: a build defect
	}
	return s
}

func finopsOurs(kind, t string) bool {
	switch kind {
	case finopsv1.KindPriceBook:
		return pricebook.Vocabulary.Has(t)
	case finopsv1.KindOffering:
		return offering.Vocabulary.Has(t)
	case finopsv1.KindSubscription:
		return subscription.Vocabulary.Has(t)
	}
	return false
}

// newFinOpsWorld draws a FinOps world with the library's generator:
// books, Offerings with a requirement graph, Subscription families with
// their targets. Conditions of our types are left out of the stored
// statuses, as no writer of ours has touched the objects yet. About one
// Subscription in four was deleted before the start (see deletedBefore),
// so that a collection run can release it.
func newFinOpsWorld(scheme *runtime.Scheme, seed uint64) (*World, error) {
	type drawn struct {
		s finops.Snapshot
		// active is, per kept Subscription, how long it was active
		// before it was deleted; 0: not deleted.
		active []time.Duration
	}
	d := rapid.Custom(func(t *rapid.T) drawn {
		s := finopstest.World(t, 2)
		s.CostJobs = finopstest.CostJobs(2).Draw(t, "costjobs")
		s.Providers = finopstest.Providers(2).Draw(t, "providers")
		active := make([]time.Duration, min(len(s.Subscriptions), maxSubscriptions))
		for i := range active {
			if rapid.IntRange(0, 3).Draw(t, "deletedBefore") == 0 {
				active[i] = rapid.SampledFrom(activeSpans).Draw(t, "activeFor")
			}
		}
		return drawn{s, active}
	}).Example(int(seed % (1 << 31)))
	s := d.s
	// A smaller world keeps the default budget fast: a host evaluates
	// the whole world on every pass.
	s.PriceBooks = s.PriceBooks[:min(len(s.PriceBooks), maxBooks)]
	s.Subscriptions = s.Subscriptions[:min(len(s.Subscriptions), maxSubscriptions)]
	for i, span := range d.active {
		if span > 0 {
			deletedBefore(&s.Subscriptions[i], span)
		}
	}
	var out []client.Object
	for _, ref := range s.Objects {
		if ref.APIVersion != "v1" || ref.Kind != "ConfigMap" {
			continue
		}
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ref.Namespace, Name: ref.Name,
			UID: types.UID("cm-" + ref.Namespace + "-" + ref.Name), CreationTimestamp: metav1.NewTime(st.GenNow().Add(-time.Hour))}}
		out = append(out, cm)
	}
	out = appendEach(out, s.PriceBooks)
	out = appendEach(out, s.Offerings)
	out = appendEach(out, s.Subscriptions)
	out = appendEach(out, s.CostJobs)
	out = appendEach(out, s.Providers)
	objs, err := untouched(scheme, finopsOurs, out)
	if err != nil {
		return nil, err
	}
	w := &finopsWorld{unreadable: map[string]bool{}}
	return &World{
		Objects:   objs,
		Prepare:   prepareFinOps,
		Change:    w.change,
		Observe:   w.observe,
		Finish:    w.finish,
		Observed:  func() any { return w.lastRun() },
		ReadError: w.readError,
		Recover:   w.recover,
		Expect:    w.expect,
		Pass:      w.pass,

		ReadObjectError: w.readObjectError,
	}, nil
}

// activeSpans are how long a Subscription deleted before the start had
// been active: with the generator's fees (hourly, minPeriods up to 3)
// the shorter ones leave minPeriods unmet, and its finalizer held.
var activeSpans = []time.Duration{30 * time.Minute, 2 * time.Hour, 4 * time.Hour}

// deletedBefore makes x a Subscription a user deleted 90 minutes before
// the start, after it had been active for span: an earlier leader stamped
// its activation and deactivation, and its finalizer waits for a
// collection run that settles the hour it was deactivated in (any run
// from the start on does, if minPeriods and its Offering allow).
func deletedBefore(x *finopsv1.Subscription, span time.Duration) {
	gone := metav1.NewTime(t0.Add(-90 * time.Minute))
	on := metav1.NewTime(gone.Add(-span))
	x.DeletionTimestamp = &gone
	x.Finalizers = []string{finopsv1.SubscriptionFinalizer}
	x.Status.ActivatedAt, x.Status.DeactivatedAt = &on, &gone
}

// prepare writes what a previous leader left: one evaluation of the
// world an hour before the start, its statuses applied under our field
// manager to every other object, so that the host meets both objects it
// never wrote and objects an earlier writer did.
func prepareFinOps(ctx context.Context, c client.Client) error {
	objs, err := listAll(ctx, c, finopsKinds)
	if err != nil {
		return err
	}
	snap, err := finopsSnapshot(objs, t0.Add(-time.Hour))
	if err != nil {
		return err
	}
	res, err := finops.Evaluate(snap)
	if err != nil {
		return err
	}
	n := 0
	each := func(gvk schema.GroupVersionKind, o *conditions.Outcome, status any) error {
		n++
		if !o.Write || n%2 == 0 {
			return nil
		}
		// A status the store refuses (the generator's odd strings) is
		// left unwritten: the host meets that object unwritten.
		_ = applyStatus(ctx, c, finopsManager, gvk, o.Namespace, o.Name, "", status, o.Owned)
		return nil
	}
	for i := range res.PriceBooks.Books {
		o := &res.PriceBooks.Books[i]
		if err := each(priceBookGVK, &o.Outcome, o.Status); err != nil {
			return err
		}
	}
	for i := range res.Offerings.Offerings {
		o := &res.Offerings.Offerings[i]
		if err := each(offeringGVK, &o.Outcome, o.Status); err != nil {
			return err
		}
	}
	for i := range res.Subscriptions.Subscriptions {
		o := &res.Subscriptions.Subscriptions[i]
		if err := each(subscriptionGVK, &o.Outcome, o.Status); err != nil {
			return err
		}
	}
	return nil
}

// applyStatus applies status, its conditions replaced by owned, under
// the field manager; rv, when set, guards it.
func applyStatus(ctx context.Context, c client.Client, manager string, gvk schema.GroupVersionKind, ns, name, rv string, status any, owned []metav1.Condition) error {
	var st map[string]any
	data, err := json.Marshal(status)
	if err == nil {
		err = json.Unmarshal(data, &st)
	}
	if err != nil {
		return err
	}
	conds := make([]any, 0, len(owned))
	for _, x := range owned {
		m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&x)
		if err != nil {
			return err
		}
		conds = append(conds, m)
	}
	st["conditions"] = conds
	a := &unstructured.Unstructured{Object: map[string]any{"status": st}}
	a.SetGroupVersionKind(gvk)
	a.SetNamespace(ns)
	a.SetName(name)
	a.SetResourceVersion(rv)
	// The server reads an apply body as YAML: a control character a
	// field carries goes as a \u escape (safejson), or every apply of
	// the object is refused.
	body, err := safejson.Marshal(a.Object)
	if err != nil {
		return err
	}
	return client.IgnoreNotFound(c.Status().Patch(ctx, a, client.RawPatch(types.ApplyPatchType, body), client.FieldOwner(manager), client.ForceOwnership))
}

// finopsRequests: the FinOps answer of one object reads others of every
// kind (books elect together, Offerings require Offerings, Subscriptions
// follow Offerings, parents and targets), so a change queues the name
// of every object with a status, as a host whose watches map each kind
// to its dependents would, at most.
func finopsRequests(obj *unstructured.Unstructured, cache []*unstructured.Unstructured) []types.NamespacedName {
	out := []types.NamespacedName{{Namespace: obj.GetNamespace(), Name: obj.GetName()}}
	for _, c := range cache {
		if c.GetKind() != "ConfigMap" {
			out = append(out, types.NamespacedName{Namespace: c.GetNamespace(), Name: c.GetName()})
		}
	}
	return out
}

// finopsSnapshot is the FinOps snapshot of stored objects at now: the
// ConfigMaps count as targets, and the pricing ConfigMap's document as
// what OpenCost holds.
func finopsSnapshot(objs []*unstructured.Unstructured, now time.Time) (finops.Snapshot, error) {
	s := finops.Snapshot{Now: now}
	err := sortInto(objs, map[string]func(*unstructured.Unstructured) error{
		finopsv1.KindPriceBook:      typedInto(&s.PriceBooks),
		finopsv1.KindOffering:       typedInto(&s.Offerings),
		finopsv1.KindSubscription:   typedInto(&s.Subscriptions),
		finopsv1.KindCostJob:        typedInto(&s.CostJobs),
		finopsv1.KindFinOpsProvider: typedInto(&s.Providers),
		"ConfigMap": func(o *unstructured.Unstructured) error {
			s.Objects = append(s.Objects, finops.ObjectRef{APIVersion: "v1", Kind: "ConfigMap", Namespace: o.GetNamespace(), Name: o.GetName()})
			if o.GetNamespace() != FinOpsNamespace || o.GetName() != finops.PricingConfigMap {
				return nil
			}
			if doc, ok, _ := unstructured.NestedString(o.Object, "data", finops.PricingKey); ok {
				return json.Unmarshal([]byte(doc), &s.PricingDocument)
			}
			return nil
		},
	})
	return s, err
}

// expect answers, for each object with a status, two things: what one
// pass over the stored world writes and whether it releases the
// finalizer (the FinalizerLast rule judges a release by these), and what
// the store holds once a host has settled it, evaluating and writing
// until nothing changes (the Settles rule). An object whose world the
// engine itself does not settle within engineRoundsCap is not judged.
func (s *finopsWorld) expect(objs []*unstructured.Unstructured, observed any, now, _ time.Time) (Expected, error) {
	snap, err := finopsSnapshot(objs, now)
	if err != nil {
		return Expected{}, err
	}
	snap.Collection, _ = observed.(*subscription.Collection)
	pass, err := finops.Evaluate(snap)
	if err != nil {
		return Expected{}, err
	}
	settled, rounds, err := settleWithRun(snap, engineRoundsCap(len(objs)))
	judged := err == nil
	if err != nil && !errors.Is(err, finops.ErrNotSettled) {
		return Expected{}, err
	}
	final, err := finops.Evaluate(settled)
	if err != nil {
		return Expected{}, err
	}
	out := map[ObjectKey]Answer{}
	held := map[ObjectKey]bool{} // the objects the settled world holds
	add := func(kind string, o *conditions.Outcome, settledPass bool) {
		k := ObjectKey{Kind: kind, NamespacedName: types.NamespacedName{Namespace: o.Namespace, Name: o.Name}}
		e := out[k]
		if settledPass {
			held[k] = true
			e.Settled, e.Release, e.Judged = o.Owned, o.Finalizer == conditions.FinalizerRemove, judged
		} else {
			e.Pass, e.PassRelease = o.Owned, o.Finalizer == conditions.FinalizerRemove
			e.Due = o.Write || o.Finalizer != conditions.FinalizerKeep
		}
		out[k] = e
	}
	for i, r := range []finops.Result{pass, final} {
		for j := range r.PriceBooks.Books {
			add(finopsv1.KindPriceBook, &r.PriceBooks.Books[j].Outcome, i == 1)
		}
		for j := range r.Offerings.Offerings {
			add(finopsv1.KindOffering, &r.Offerings.Offerings[j].Outcome, i == 1)
		}
		for j := range r.Subscriptions.Subscriptions {
			add(finopsv1.KindSubscription, &r.Subscriptions.Subscriptions[j].Outcome, i == 1)
		}
	}
	// An object the settled world no longer holds had its finalizer
	// released on the way: once settled, it must be gone.
	for k, e := range out {
		if e.Settled != nil || e.Judged || e.Release || e.Pass == nil {
			continue
		}
		if k.Kind != finopsv1.KindOffering && k.Kind != finopsv1.KindSubscription {
			continue
		}
		if !held[k] {
			e.Settled, e.Release, e.Judged = e.Pass, true, judged
			out[k] = e
		}
	}
	return Expected{Objects: out, Rounds: rounds}, nil
}

// settleWithRun is finops.Settle for a host that hands the last
// collection run to every pass (FinOpsCollection): the run is part of
// every round, where finops.Settle lets it happen in the first only.
func settleWithRun(s finops.Snapshot, maxRounds int) (finops.Snapshot, int, error) {
	run := s.Collection
	for round := 0; ; round++ {
		s.Collection = run
		r, err := finops.Evaluate(s)
		if err != nil {
			return s, round, err
		}
		if !r.Changed() {
			return s, round, nil
		}
		if round == maxRounds {
			return s, round, fmt.Errorf("%w after %d rounds", finops.ErrNotSettled, maxRounds)
		}
		s = finops.Apply(s, r)
	}
}
