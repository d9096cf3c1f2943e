package hostcheck

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
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
// of PriceBooks or Offerings fail for a while when the world says so.
// Its observer is the charge collector: a SubscriptionChargeCollection
// run where a Binding schedule ends a probe pass, and once more when
// faults and edits stop; Env.Observed returns the last run
// (FinOpsCollection). Each call returns a new value.
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
var readKinds = []string{finopsv1.KindPriceBook, finopsv1.KindOffering}

func (s *finopsWorld) readError(kind string) error {
	if !s.unreadable[kind] {
		return nil
	}
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
	return client.IgnoreNotFound(c.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(a), client.FieldOwner(manager), client.ForceOwnership))
}

// The variants a FinOps edit draws from.
var (
	editRates     = []string{"0.031", "0.05", "not-a-rate", ""}
	editPrices    = []int64{1_000_000, 2_500_000, 0, 7_000_000}
	editIntervals = []string{"1h", "24h", "45m", "never"}
)

// recordRun is a ResourceCostCollection run recording itself on a
// CostJob, as the run does: its record first in the execution history,
// and the last-execution fields, under the run's own field manager.
func recordRun(ctx context.Context, w client.Client, u *unstructured.Unstructured, variant int, now time.Time) error {
	x := u.DeepCopy()
	status, result := "Success", map[string]any{"executionTime": now.UTC().Format(time.RFC3339), "status": "Success", "duration": "42s"}
	if variant%2 == 1 {
		status, result["status"], result["error"] = "Failed", "Failed", "opencost fetch timed out"
	}
	history, _, _ := unstructured.NestedSlice(x.Object, "status", "executionHistory")
	history = append([]any{result}, history...)[:min(len(history)+1, 5)]
	if err := unstructured.SetNestedSlice(x.Object, history, "status", "executionHistory"); err != nil {
		return err
	}
	if err := unstructured.SetNestedField(x.Object, result["executionTime"], "status", "lastExecutionTime"); err != nil {
		return err
	}
	if err := unstructured.SetNestedField(x.Object, status, "status", "lastExecutionStatus"); err != nil {
		return err
	}
	if status == "Success" {
		if err := unstructured.SetNestedField(x.Object, result["executionTime"], "status", "lastSuccessfulExecutionTime"); err != nil {
			return err
		}
	}
	return w.Status().Update(ctx, x, client.FieldOwner("finops-costjob-run"))
}

// edit: a creation makes a root Subscription, a child Subscription or an
// Offering; a deletion removes any object (a parent, a target, an
// Offering others need; the finalizers hold what they guard); a spec
// edit changes a book's rate, an Offering's fee or requirements, a
// Subscription's target or policy, a CostJob's interval or a provider's
// block, and bumps the generation. One spec edit in eight (variant 7)
// instead makes reads of books or of Offerings start failing, or stop.
// Other writers' changes are conditions of their own on our kinds, and
// a run's record on a CostJob.
func (s *finopsWorld) change(ctx context.Context, w client.Client, e Event) (string, error) {
	if e.Op == Edit && e.Variant == 7 {
		return s.toggleRead(e.Target), nil
	}
	return "", finopsEdit(ctx, w, e)
}

func finopsEdit(ctx context.Context, w client.Client, e Event) error {
	objs, err := listAll(ctx, w, finopsKinds)
	if err != nil {
		return err
	}
	offs, subs := ofKind(objs, finopsv1.KindOffering), ofKind(objs, finopsv1.KindSubscription)
	switch e.Op {
	case Create:
		return finopsCreate(ctx, w, e, offs, subs)
	case Delete:
		if len(objs) == 0 {
			return nil
		}
		return client.IgnoreNotFound(w.Delete(ctx, objs[e.Target%len(objs)]))
	case Foreign:
		var ss []*unstructured.Unstructured
		for _, o := range objs {
			if o.GetKind() != "ConfigMap" && o.GetKind() != finopsv1.KindFinOpsProvider {
				ss = append(ss, o)
			}
		}
		if len(ss) == 0 {
			return nil
		}
		u := ss[e.Target%len(ss)]
		if u.GetKind() == finopsv1.KindCostJob {
			return recordRun(ctx, w, u, e.Variant, e.Now)
		}
		return foreignWrite(ctx, w, u, e.Variant, e.Now, func(t string) bool { return finopsOurs(u.GetKind(), t) })
	}
	if len(objs) == 0 {
		return nil
	}
	u := objs[e.Target%len(objs)].DeepCopy()
	switch u.GetKind() {
	case finopsv1.KindPriceBook:
		err = unstructured.SetNestedField(u.Object, editRates[e.Variant%len(editRates)], "spec", "rates", "cpuHour")
	case finopsv1.KindOffering:
		if e.Variant%2 == 0 {
			err = unstructured.SetNestedField(u.Object, map[string]any{
				"priceMicros": editPrices[e.Variant/2%len(editPrices)], "period": "1h", "tickAlignment": finopsv1.AlignActivatedAt,
			}, "spec", "pricing", "subscriptionFee")
		} else {
			var req []any
			if len(offs) > 0 && e.Variant%4 == 1 {
				o := offs[e.Variant/4%len(offs)]
				req = append(req, map[string]any{"namespace": o.GetNamespace(), "name": o.GetName()})
			}
			err = unstructured.SetNestedSlice(u.Object, req, "spec", "compatibility", "requiredOfferings")
		}
	case finopsv1.KindSubscription:
		lc := map[string]any{}
		switch e.Variant % 3 {
		case 0:
			lc["targetRef"] = map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "namespace": u.GetNamespace(), "name": "t" + strconv.Itoa(e.Variant%4)}
		case 1:
			lc["onParentDeactivate"] = finopsv1.PolicyOrphan
		}
		err = unstructured.SetNestedMap(u.Object, lc, "spec", "lifecycle")
	case finopsv1.KindCostJob:
		err = unstructured.SetNestedField(u.Object, editIntervals[e.Variant%len(editIntervals)], "spec", "interval")
	case finopsv1.KindFinOpsProvider:
		block := []string{"awsoptions", "gcpoptions", "azureoptions", "onpremoptions"}[e.Variant%4]
		err = unstructured.SetNestedMap(u.Object, map[string]any{block: map[string]any{"pricingModelSource": "Pricebook"}}, "spec")
	default:
		// A target's content: it has no generation.
		err = unstructured.SetNestedField(u.Object, strconv.Itoa(e.Variant), "data", "v")
		if err != nil {
			return err
		}
		return w.Update(ctx, u)
	}
	if err != nil {
		return err
	}
	u.SetGeneration(u.GetGeneration() + 1)
	return w.Update(ctx, u)
}

func finopsCreate(ctx context.Context, w client.Client, e Event, offs, subs []*unstructured.Unstructured) error {
	name, uid := "new-"+strconv.Itoa(e.Created), types.UID("un-"+strconv.Itoa(e.Created))
	// The API server stamps a creation with the clock as it is; after a
	// backward jump the host's clock is behind it, which the engine
	// settles (docs/decisions/created-after-now.md).
	created := metav1.NewTime(e.Now)
	if e.Variant%3 == 2 || len(offs) == 0 {
		o := st.ReadyOffering("shop", name)
		o.Status = finopsv1.OfferingStatus{}
		o.Finalizers = nil
		o.UID, o.CreationTimestamp, o.Generation = uid, created, 1
		o.SetGroupVersionKind(offeringGVK)
		return w.Create(ctx, &o)
	}
	off := offs[e.Target%len(offs)]
	ns := []string{"team-a", "team-b"}[e.Variant%2]
	opts := []st.Option{st.Offering(off.GetNamespace(), off.GetName()), st.UID(string(uid)), st.Generation(1)}
	if e.Variant%3 == 1 && len(subs) > 0 {
		p := subs[e.Target%len(subs)]
		ns = p.GetNamespace()
		opts = append(opts, st.Parent(p.GetNamespace(), p.GetName()))
	}
	s := st.New(ns, name, opts...)
	s.CreationTimestamp = created
	s.SetGroupVersionKind(subscriptionGVK)
	return w.Create(ctx, &s)
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

// The variants of a collection run: where its buckets came from, or an
// error recorded against one Subscription.
func collectionSources(e Event) string {
	switch e.Variant % 4 {
	case 2:
		return "the charge rows unreadable, every bucket from the fee calculator"
	case 3:
		return fmt.Sprintf("buckets from the charge rows, an error recorded against Subscription #%d", e.Target)
	}
	return "buckets from the charge rows"
}

// observe: the charge collector runs where a Binding schedule ends a
// probe pass; the FinOps system has no pass to start.
func (s *finopsWorld) observe(ctx context.Context, c client.Reader, e Event) (string, []types.NamespacedName, error) {
	if e.Op != ObserveEnd {
		return "no observer pass starts (the FinOps system has no prober)", nil, nil
	}
	names, err := s.collect(ctx, c, e)
	return "the charge collector runs for this hour (" + collectionSources(e) + ")", names, err
}

// finish: the charge collector runs once more when faults and edits
// stop, so every world's held Subscriptions are judged for release.
func (s *finopsWorld) finish(ctx context.Context, c client.Reader, now time.Time) (string, []types.NamespacedName, error) {
	e := Event{Op: ObserveEnd, Now: now}
	names, err := s.collect(ctx, c, e)
	return "the charge collector runs once more (" + collectionSources(e) + ")", names, err
}

// collect is a SubscriptionChargeCollection run at e.Now, scheduled for
// the hour it is in: it gives every activated Subscription three buckets
// from the source e draws (or an error), becomes the last run, and its
// end queues every object with a status. The run's own writes (charge
// rows, its record on the CostJob) are outside what the harness stores.
func (s *finopsWorld) collect(ctx context.Context, c client.Reader, e Event) ([]types.NamespacedName, error) {
	objs, err := listAll(ctx, c, finopsKinds)
	if err != nil {
		return nil, err
	}
	run := &subscription.Collection{ScheduledHour: e.Now.UTC().Truncate(time.Hour)}
	src := subscription.SourceDB
	if e.Variant%4 == 2 {
		src = subscription.SourceCalculator
	}
	var names []types.NamespacedName
	subs := ofKind(objs, finopsv1.KindSubscription)
	for i, u := range subs {
		if _, ok, _ := unstructured.NestedString(u.Object, "status", "activatedAt"); !ok {
			continue
		}
		r := subscription.CollectionResult{Subscription: finopsv1.Reference{Namespace: u.GetNamespace(), Name: u.GetName()}, Buckets: 3, Source: src}
		if e.Variant%4 == 3 && i == e.Target%len(subs) {
			r.Buckets, r.Source = 0, subscription.SourceError
		}
		run.Results = append(run.Results, r)
	}
	for _, u := range objs {
		if slices.Contains(finopsStatusKinds, u.GroupVersionKind()) {
			names = append(names, keyOf(u).NamespacedName)
		}
	}
	s.last = run
	return names, nil
}
