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
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/conditions"
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
)

// finopsSystem is the FinOps operator: PriceBooks, Offerings and
// Subscriptions, the ConfigMaps that Subscriptions name as targets (and
// the pricing document lives in), and CostJobs and FinOpsProviders,
// whose status the host never writes. Reads of PriceBooks or Offerings
// fail for a while when the world says so (unreadable, by kind). The
// charge collector's last run (collector) is handed to the host through
// Env.Collection and to every evaluation of the oracle.
type finopsSystem struct {
	unreadable map[string]bool
	collector  *collector
}

// collector holds the last SubscriptionChargeCollection run; nil before
// the first.
type collector struct {
	last *subscription.Collection
}

// lastRun is a copy of the last run, nil before the first.
func (s finopsSystem) lastRun() *subscription.Collection {
	if s.collector == nil || s.collector.last == nil {
		return nil
	}
	c := *s.collector.last
	c.Results = slices.Clone(c.Results)
	return &c
}

func (finopsSystem) kinds() []schema.GroupVersionKind {
	return []schema.GroupVersionKind{configMapGVK, priceBookGVK, offeringGVK, subscriptionGVK, costJobGVK, providerGVK}
}

func (finopsSystem) statusKinds() []schema.GroupVersionKind {
	return []schema.GroupVersionKind{priceBookGVK, offeringGVK, subscriptionGVK}
}

// silentKinds: a CostJob's status is its runs' record, a FinOpsProvider's
// is declared and never written.
func (finopsSystem) silentKinds() []schema.GroupVersionKind {
	return []schema.GroupVersionKind{costJobGVK, providerGVK}
}

// The kinds whose reads the world can make fail: the snapshot's
// failing-read inputs a host meets as errors of its List or Get.
var readKinds = []string{finopsv1.KindPriceBook, finopsv1.KindOffering}

func (s finopsSystem) readError(kind string) error {
	if !s.unreadable[kind] {
		return nil
	}
	return apierrors.NewServiceUnavailable("reading " + kind + "s failed: the server is unavailable")
}

func (s finopsSystem) failing() bool { return len(s.unreadable) > 0 }

func (s finopsSystem) calm() string {
	if len(s.unreadable) == 0 {
		return ""
	}
	clear(s.unreadable)
	return "reads of every kind work again"
}

// toggleRead makes reads of one kind start failing, or stop.
func (s finopsSystem) toggleRead(target int) error {
	kind := readKinds[target%len(readKinds)]
	if s.unreadable[kind] {
		delete(s.unreadable, kind)
		return note("reads of " + kind + "s work again")
	}
	s.unreadable[kind] = true
	return note("reads of " + kind + "s fail from now on (the server is unavailable)")
}

func (finopsSystem) scheme() *runtime.Scheme {
	s := runtime.NewScheme()
	if err := errors.Join(finopsv1.AddToScheme(s), corev1.AddToScheme(s)); err != nil {
		panic(err) // a registration of known types: a build defect
	}
	return s
}

func (finopsSystem) manager() string { return finopsManager }

// timed: the FinOps operator follows no writer policy of gaps and
// backoffs (that policy is the broker's).
func (finopsSystem) timed() bool { return false }

func (finopsSystem) ours(kind, t string) bool {
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

func (finopsSystem) finalizer(kind string) string {
	switch kind {
	case finopsv1.KindOffering:
		return finopsv1.OfferingFinalizer
	case finopsv1.KindSubscription:
		return finopsv1.SubscriptionFinalizer
	}
	return ""
}

// world draws a FinOps world with the library's generator: books,
// Offerings with a requirement graph, Subscription families with their
// targets. Conditions of our types are left out of the stored statuses,
// as no writer of ours has touched the objects yet. About one
// Subscription in four was deleted before the start (see deletedBefore),
// so that a collection run can release it.
func (finopsSystem) world(seed uint64) ([]client.Object, error) {
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
	return untouched(finopsSystem{}, out)
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
func (finopsSystem) prepare(ctx context.Context, c client.Client) ([]binding.ProbeResult, error) {
	objs, err := listAll(ctx, c, finopsSystem{}.kinds())
	if err != nil {
		return nil, err
	}
	snap, err := finopsSnapshot(objs, t0.Add(-time.Hour))
	if err != nil {
		return nil, err
	}
	res, err := finops.Evaluate(snap)
	if err != nil {
		return nil, err
	}
	n := 0
	each := func(gvk schema.GroupVersionKind, o *conditions.Outcome, status any) error {
		n++
		if !o.Write || n%2 == 0 {
			return nil
		}
		// A status the store refuses (the generator's odd strings) is
		// left unwritten: the host meets that object unwritten.
		_ = applyStatus(ctx, c, gvk, o.Namespace, o.Name, "", status, o.Owned)
		return nil
	}
	for i := range res.PriceBooks.Books {
		o := &res.PriceBooks.Books[i]
		if err := each(priceBookGVK, &o.Outcome, o.Status); err != nil {
			return nil, err
		}
	}
	for i := range res.Offerings.Offerings {
		o := &res.Offerings.Offerings[i]
		if err := each(offeringGVK, &o.Outcome, o.Status); err != nil {
			return nil, err
		}
	}
	for i := range res.Subscriptions.Subscriptions {
		o := &res.Subscriptions.Subscriptions[i]
		if err := each(subscriptionGVK, &o.Outcome, o.Status); err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// applyStatus applies status, its conditions replaced by owned, under
// our field manager; rv, when set, guards it.
func applyStatus(ctx context.Context, c client.Client, gvk schema.GroupVersionKind, ns, name, rv string, status any, owned []metav1.Condition) error {
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
	return client.IgnoreNotFound(c.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(a), client.FieldOwner(finopsManager), client.ForceOwnership))
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
func (s finopsSystem) edit(ctx context.Context, w client.Client, e event, n int, now time.Time) error {
	if e.Op == opEdit && e.Arg == 7 {
		return s.toggleRead(e.Target)
	}
	objs, err := listAll(ctx, w, finopsSystem{}.kinds())
	if err != nil {
		return err
	}
	offs, subs := ofKind(objs, finopsv1.KindOffering), ofKind(objs, finopsv1.KindSubscription)
	switch e.Op {
	case opCreate:
		return finopsCreate(ctx, w, e, n, now, offs, subs)
	case opDelete:
		if len(objs) == 0 {
			return nil
		}
		return client.IgnoreNotFound(w.Delete(ctx, objs[e.Target%len(objs)]))
	case opForeign:
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
			return recordRun(ctx, w, u, e.Arg, now)
		}
		return foreignWrite(ctx, w, u, e.Arg, now, func(t string) bool { return finopsSystem{}.ours(u.GetKind(), t) })
	}
	if len(objs) == 0 {
		return nil
	}
	u := objs[e.Target%len(objs)].DeepCopy()
	switch u.GetKind() {
	case finopsv1.KindPriceBook:
		err = unstructured.SetNestedField(u.Object, editRates[e.Arg%len(editRates)], "spec", "rates", "cpuHour")
	case finopsv1.KindOffering:
		if e.Arg%2 == 0 {
			err = unstructured.SetNestedField(u.Object, map[string]any{
				"priceMicros": editPrices[e.Arg/2%len(editPrices)], "period": "1h", "tickAlignment": finopsv1.AlignActivatedAt,
			}, "spec", "pricing", "subscriptionFee")
		} else {
			var req []any
			if len(offs) > 0 && e.Arg%4 == 1 {
				o := offs[e.Arg/4%len(offs)]
				req = append(req, map[string]any{"namespace": o.GetNamespace(), "name": o.GetName()})
			}
			err = unstructured.SetNestedSlice(u.Object, req, "spec", "compatibility", "requiredOfferings")
		}
	case finopsv1.KindSubscription:
		lc := map[string]any{}
		switch e.Arg % 3 {
		case 0:
			lc["targetRef"] = map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "namespace": u.GetNamespace(), "name": "t" + strconv.Itoa(e.Arg%4)}
		case 1:
			lc["onParentDeactivate"] = finopsv1.PolicyOrphan
		}
		err = unstructured.SetNestedMap(u.Object, lc, "spec", "lifecycle")
	case finopsv1.KindCostJob:
		err = unstructured.SetNestedField(u.Object, editIntervals[e.Arg%len(editIntervals)], "spec", "interval")
	case finopsv1.KindFinOpsProvider:
		block := []string{"awsoptions", "gcpoptions", "azureoptions", "onpremoptions"}[e.Arg%4]
		err = unstructured.SetNestedMap(u.Object, map[string]any{block: map[string]any{"pricingModelSource": "Pricebook"}}, "spec")
	default:
		// A target's content: it has no generation.
		err = unstructured.SetNestedField(u.Object, strconv.Itoa(e.Arg), "data", "v")
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

func finopsCreate(ctx context.Context, w client.Client, e event, n int, now time.Time, offs, subs []*unstructured.Unstructured) error {
	name, uid := "new-"+strconv.Itoa(n), types.UID("un-"+strconv.Itoa(n))
	// The API server stamps a creation with the clock as it is; after a
	// backward jump the host's clock is behind it, which the engine
	// settles (docs/decisions/created-after-now.md).
	created := metav1.NewTime(now)
	if e.Arg%3 == 2 || len(offs) == 0 {
		o := st.ReadyOffering("shop", name)
		o.Status = finopsv1.OfferingStatus{}
		o.Finalizers = nil
		o.UID, o.CreationTimestamp, o.Generation = uid, created, 1
		o.SetGroupVersionKind(offeringGVK)
		return w.Create(ctx, &o)
	}
	off := offs[e.Target%len(offs)]
	ns := []string{"team-a", "team-b"}[e.Arg%2]
	opts := []st.Option{st.Offering(off.GetNamespace(), off.GetName()), st.UID(string(uid)), st.Generation(1)}
	if e.Arg%3 == 1 && len(subs) > 0 {
		p := subs[e.Target%len(subs)]
		ns = p.GetNamespace()
		opts = append(opts, st.Parent(p.GetNamespace(), p.GetName()))
	}
	s := st.New(ns, name, opts...)
	s.CreationTimestamp = created
	s.SetGroupVersionKind(subscriptionGVK)
	return w.Create(ctx, &s)
}

// requests: the FinOps answer of one object reads others of every kind
// (books elect together, Offerings require Offerings, Subscriptions
// follow Offerings, parents and targets), so a change queues the name
// of every object with a status, as a host whose watches map each kind
// to its dependents would, at most.
func (finopsSystem) requests(obj *unstructured.Unstructured, cache []*unstructured.Unstructured) []types.NamespacedName {
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
func (s finopsSystem) expect(objs []*unstructured.Unstructured, _ []binding.ProbeResult, now, _ time.Time) (map[objKey]expected, error) {
	snap, err := finopsSnapshot(objs, now)
	if err != nil {
		return nil, err
	}
	snap.Collection = s.lastRun()
	pass, err := finops.Evaluate(snap)
	if err != nil {
		return nil, err
	}
	settled, _, err := settleWithRun(snap, engineRoundsCap(len(objs)))
	judged := err == nil
	if err != nil && !errors.Is(err, finops.ErrNotSettled) {
		return nil, err
	}
	final, err := finops.Evaluate(settled)
	if err != nil {
		return nil, err
	}
	out := map[objKey]expected{}
	held := map[objKey]bool{} // the objects the settled world holds
	add := func(kind string, o *conditions.Outcome, settledPass bool) {
		k := objKey{Kind: kind, NamespacedName: types.NamespacedName{Namespace: o.Namespace, Name: o.Name}}
		e := out[k]
		if settledPass {
			held[k] = true
			e.owned, e.release, e.ok = o.Owned, o.Finalizer == conditions.FinalizerRemove, judged
		} else {
			e.pass, e.passRelease = o.Owned, o.Finalizer == conditions.FinalizerRemove
			e.due = o.Write || o.Finalizer != conditions.FinalizerKeep
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
		if e.owned != nil || e.ok || e.release || e.pass == nil {
			continue
		}
		if k.Kind != finopsv1.KindOffering && k.Kind != finopsv1.KindSubscription {
			continue
		}
		if !held[k] {
			e.owned, e.release, e.ok = e.pass, true, judged
			out[k] = e
		}
	}
	return out, nil
}

// settleWithRun is finops.Settle for a host that hands the last
// collection run to every pass (Env.Collection): the run is part of
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
func collectionSources(e event) string {
	switch e.Arg % 4 {
	case 2:
		return "the charge rows unreadable, every bucket from the fee calculator"
	case 3:
		return fmt.Sprintf("buckets from the charge rows, an error recorded against Subscription #%d", e.Target)
	}
	return "buckets from the charge rows"
}

// collect is a SubscriptionChargeCollection run at now, scheduled for
// the hour now is in: it gives every activated Subscription three
// buckets from the source e draws (or an error), becomes the last run,
// and its end queues every object with a status. The run's own writes
// (charge rows, its record on the CostJob) are outside what the harness
// stores.
func (s finopsSystem) collect(ctx context.Context, c client.Reader, e event, now time.Time) ([]types.NamespacedName, error) {
	objs, err := listAll(ctx, c, s.kinds())
	if err != nil {
		return nil, err
	}
	run := &subscription.Collection{ScheduledHour: now.UTC().Truncate(time.Hour)}
	src := subscription.SourceDB
	if e.Arg%4 == 2 {
		src = subscription.SourceCalculator
	}
	var names []types.NamespacedName
	subs := ofKind(objs, finopsv1.KindSubscription)
	for i, u := range subs {
		if _, ok, _ := unstructured.NestedString(u.Object, "status", "activatedAt"); !ok {
			continue
		}
		r := subscription.CollectionResult{Subscription: finopsv1.Reference{Namespace: u.GetNamespace(), Name: u.GetName()}, Buckets: 3, Source: src}
		if e.Arg%4 == 3 && i == e.Target%len(subs) {
			r.Buckets, r.Source = 0, subscription.SourceError
		}
		run.Results = append(run.Results, r)
	}
	for _, u := range objs {
		if slices.Contains(s.statusKinds(), u.GroupVersionKind()) {
			names = append(names, keyOf(u).NamespacedName)
		}
	}
	s.collector.last = run
	return names, nil
}

func (finopsSystem) probe(*unstructured.Unstructured, int64, int) (binding.ProbeResult, bool) {
	return binding.ProbeResult{}, false
}
