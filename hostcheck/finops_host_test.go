package hostcheck_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/hostcheck"
	"github.com/condengine/condengine/internal/safejson"
	"github.com/condengine/condengine/subscription"
)

// The FinOps planted bugs, numbered after the Binding ones;
// finopsWriteAsStandby stays the last.
const (
	finalizerFirst bug = retryDropped + 1 + iota
	finopsNoGuard
	providerStatus
	costJobStatus
	releaseOnDelete
	finopsRetryDropped
	finopsWriteAsStandby
)

func init() {
	bugNames[finalizerFirst] = "the finalizer removed before the status write (FinOps)"
	bugNames[finopsNoGuard] = "a write without the resourceVersion guard (FinOps)"
	bugNames[providerStatus] = "a Ready condition written on a FinOpsProvider (FinOps)"
	bugNames[costJobStatus] = "a CostJob's run record overwritten (FinOps)"
	bugNames[releaseOnDelete] = "a Subscription's finalizer released on deletion, before a collection run (FinOps)"
	bugNames[finopsRetryDropped] = "a retry that is dropped after a failed read (FinOps)"
	bugNames[finopsWriteAsStandby] = "writing while not the leader (FinOps)"
}

// finopsHost is a small FinOps host: every request evaluates the world
// from its cache, with the last collection run, and, for the objects of
// the request's name, writes the status the engine asks for; a finalizer
// changes only in a later pass, once no status write is due. It writes
// only as the leader, and comes back to an object that asks for a retry
// at a wait that doubles while it keeps asking. With a bug set, it makes
// that one mistake.
type finopsHost struct {
	c   client.Client
	env hostcheck.Env
	bug bug
	// retries holds each retrying object's count in a row and when it is
	// due again, by UID.
	retries map[types.UID]retryWait
	// handed is the collection run the collectionOnce host handed to a
	// pass already.
	handed *subscription.Collection
}

type retryWait struct {
	n    int
	at   time.Time
	wait time.Duration
}

func newFinOpsHost(b bug) hostcheck.NewHost {
	return func(c client.Client, env hostcheck.Env) (reconcile.Reconciler, error) {
		return &finopsHost{c: c, env: env, bug: b, retries: map[types.UID]retryWait{}}, nil
	}
}

// retryAt is when an object that asks for a retry is due again: the
// engine's RetryAt the first time in a row, then, each time a pass at or
// after that instant finds it still asking, twice the last wait (at most
// five minutes). After the clock went back, a due instant further away
// than its wait is set again from now.
func (h *finopsHost) retryAt(o *conditions.Outcome, now time.Time) time.Time {
	w := h.retries[o.UID]
	switch {
	case w.n == 0 || !now.Before(w.at):
		w.n++
		w.wait = min(conditions.RetryDelay<<min(w.n-1, 9), 5*time.Minute)
		w.at = now.Add(w.wait)
		if o.RetryAt.After(w.at) {
			w.at, w.wait = o.RetryAt, o.RetryAt.Sub(now)
		}
	case w.at.Sub(now) > w.wait:
		w.at = now.Add(w.wait)
	}
	h.retries[o.UID] = w
	return w.at
}

func (h *finopsHost) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	if !h.env.Leader() && h.bug != finopsWriteAsStandby {
		return reconcile.Result{}, nil
	}
	now := h.env.Now()
	var bl finopsv1.PriceBookList
	var ol finopsv1.OfferingList
	var sl finopsv1.SubscriptionList
	if err := h.c.List(ctx, &sl); err != nil {
		return reconcile.Result{}, err
	}
	snap := finops.Snapshot{Now: now, Subscriptions: sl.Items, Collection: h.collection()}
	// A failed list of books or Offerings is a failed read for the
	// engine, and each Subscription's Offering with it. The
	// failedListEmpty host comes back after it as the others do, but
	// evaluates the kind as empty meanwhile.
	booksFailed, offeringsFailed := h.c.List(ctx, &bl) != nil, h.c.List(ctx, &ol) != nil
	listFailed := booksFailed || offeringsFailed
	if booksFailed && h.bug != failedListEmpty {
		snap.Failures = append(snap.Failures, finops.Failure{Kind: finopsv1.KindPriceBook})
	}
	if offeringsFailed && h.bug != failedListEmpty {
		snap.Failures = append(snap.Failures, finops.Failure{Kind: finopsv1.KindOffering})
		for _, x := range sl.Items {
			snap.Failures = append(snap.Failures, finops.Failure{Kind: finopsv1.KindOffering, Namespace: x.Spec.OfferingRef.Namespace, Name: x.Spec.OfferingRef.Name})
		}
	}
	snap.PriceBooks, snap.Offerings = bl.Items, ol.Items
	// Each target is read on its own: one that cannot be read is a
	// failed read, one that is not there is gone.
	for _, x := range sl.Items {
		if x.Spec.Lifecycle == nil || x.Spec.Lifecycle.TargetRef == nil || x.Spec.Lifecycle.TargetRef.Kind != "ConfigMap" {
			continue
		}
		ref := x.Spec.Lifecycle.TargetRef
		obj := finops.ObjectRef{APIVersion: ref.APIVersion, Kind: ref.Kind, Namespace: ref.Namespace, Name: ref.Name}
		var cm corev1.ConfigMap
		switch err := h.c.Get(ctx, types.NamespacedName{Namespace: ref.Namespace, Name: ref.Name}, &cm); {
		case err == nil:
			snap.Objects = append(snap.Objects, obj)
		case apierrors.IsNotFound(err) || h.bug == targetErrorNotFound:
		default:
			snap.Failures = append(snap.Failures, finops.Failure{APIVersion: ref.APIVersion, Kind: ref.Kind, Namespace: ref.Namespace, Name: ref.Name})
		}
	}
	var pricing corev1.ConfigMap
	switch err := h.c.Get(ctx, types.NamespacedName{Namespace: hostcheck.FinOpsNamespace, Name: finops.PricingConfigMap}, &pricing); {
	case err == nil:
		if err := json.Unmarshal([]byte(pricing.Data[finops.PricingKey]), &snap.PricingDocument); err != nil {
			snap.PricingDocument = nil
		}
	case !apierrors.IsNotFound(err):
		return reconcile.Result{}, err
	}
	res, err := finops.Evaluate(snap)
	if err != nil {
		return reconcile.Result{}, err
	}
	var failed error
	var next time.Time
	mine := func(o *conditions.Outcome) bool { return o.Namespace == req.Namespace && o.Name == req.Name }
	due := func(o *conditions.Outcome) {
		if !o.Retry {
			delete(h.retries, o.UID)
			return
		}
		if at := h.retryAt(o, now); next.IsZero() || at.Before(next) {
			next = at
		}
	}
	for _, o := range res.PriceBooks.Books {
		if mine(&o.Outcome) && o.Write {
			failed = errors.Join(failed, h.writeStatus(ctx, finopsv1.KindPriceBook, &o.Outcome, o.Status, metaOf(bl.Items, o.UID)))
		}
	}
	for _, o := range res.Offerings.Offerings {
		if !mine(&o.Outcome) {
			continue
		}
		meta := metaOf(ol.Items, o.UID)
		if h.bug == finalizerFirst && o.Finalizer != conditions.FinalizerKeep {
			// The bug: the finalizer goes first, the status after.
			failed = errors.Join(failed, h.finalizer(ctx, meta, o.Finalizer))
		}
		switch {
		case o.Write:
			// The finalizer changes in a later pass, queued by this
			// write's own event, once the status is read back.
			failed = errors.Join(failed, h.writeStatus(ctx, finopsv1.KindOffering, &o.Outcome, o.Status, meta))
		case o.Finalizer != conditions.FinalizerKeep && h.bug != finalizerFirst:
			failed = errors.Join(failed, h.finalizer(ctx, meta, o.Finalizer))
		}
		due(&o.Outcome)
	}
	for _, o := range res.Subscriptions.Subscriptions {
		if !mine(&o.Outcome) {
			continue
		}
		meta := metaOf(sl.Items, o.UID)
		switch {
		case h.bug == releaseOnDelete && meta != nil && meta.GetDeletionTimestamp() != nil && slices.Contains(meta.GetFinalizers(), finopsv1.SubscriptionFinalizer):
			// The bug: a deleted Subscription is let go at once, its
			// last hours never charged.
			failed = errors.Join(failed, h.finalizer(ctx, meta, conditions.FinalizerRemove))
		case o.Write:
			failed = errors.Join(failed, h.writeStatus(ctx, finopsv1.KindSubscription, &o.Outcome, o.Status, meta))
		case o.Finalizer != conditions.FinalizerKeep:
			failed = errors.Join(failed, h.finalizer(ctx, meta, o.Finalizer))
		}
		due(&o.Outcome)
	}
	if res.PriceBooks.DocumentChanged && res.PriceBooks.Document != nil {
		failed = errors.Join(failed, h.pushDocument(ctx, res.PriceBooks.Document))
	}
	if h.bug == providerStatus || h.bug == costJobStatus {
		failed = errors.Join(failed, h.silentWrite(ctx, req))
	}
	if failed != nil {
		return reconcile.Result{}, failed
	}
	// A failed list leaves its kind out of the engine's answer, so no
	// outcome asks for those objects: the host comes back on its own, at
	// the same doubling wait (kept under the empty UID).
	if listFailed {
		if at := h.retryAt(&conditions.Outcome{Retry: true}, now); next.IsZero() || at.Before(next) {
			next = at
		}
	} else {
		delete(h.retries, "")
	}
	if next.IsZero() || (h.bug == finopsRetryDropped && len(snap.Failures) > 0) {
		// The bug: a pass that met a failed read trusts the next event
		// to bring it back.
		return reconcile.Result{}, nil
	}
	return reconcile.Result{RequeueAfter: max(next.Sub(now), time.Millisecond)}, nil
}

func metaOf[T any, P interface {
	*T
	metav1.Object
}](list []T, uid types.UID) metav1.Object {
	for i := range list {
		if P(&list[i]).GetUID() == uid {
			return P(&list[i])
		}
	}
	return nil
}

// writeStatus applies the kind's whole status with only our condition
// types, guarded by the resourceVersion it was computed from.
func (h *finopsHost) writeStatus(ctx context.Context, kind string, o *conditions.Outcome, status any, meta metav1.Object) error {
	if meta == nil {
		return nil
	}
	rv := meta.GetResourceVersion()
	if h.bug == finopsNoGuard {
		rv = ""
	}
	return hostcheck.ApplyStatus(ctx, h.c, finopsv1.GroupVersion.WithKind(kind), meta.GetNamespace(), meta.GetName(), rv, status, o.Owned)
}

// finalizer adds or removes the finalizer of an Offering or a
// Subscription with a merge patch guarded by the resourceVersion read.
func (h *finopsHost) finalizer(ctx context.Context, meta metav1.Object, a conditions.FinalizerAction) error {
	var obj, read client.Object
	var name string
	switch o := meta.(type) {
	case *finopsv1.Offering:
		obj, read, name = o.DeepCopy(), o, finopsv1.OfferingFinalizer
	case *finopsv1.Subscription:
		obj, read, name = o.DeepCopy(), o, finopsv1.SubscriptionFinalizer
	default:
		return nil
	}
	if a == conditions.FinalizerAdd {
		obj.SetFinalizers(append(obj.GetFinalizers(), name))
	} else {
		obj.SetFinalizers(slices.DeleteFunc(obj.GetFinalizers(), func(f string) bool { return f == name }))
	}
	return h.c.Patch(ctx, obj, client.MergeFromWithOptions(read, client.MergeFromWithOptimisticLock{}))
}

// silentWrite is the providerStatus and costJobStatus bugs: the host
// marks the FinOpsProvider of the request's name Ready, or folds a
// Pending run into the CostJob of that name, though the engine decides
// no status for either.
func (h *finopsHost) silentWrite(ctx context.Context, req reconcile.Request) error {
	if h.bug == providerStatus {
		var p finopsv1.FinOpsProvider
		if err := h.c.Get(ctx, req.NamespacedName, &p); err != nil {
			return client.IgnoreNotFound(err)
		}
		meta.SetStatusCondition(&p.Status.Conditions, metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Configured",
			ObservedGeneration: p.Generation, LastTransitionTime: metav1.NewTime(h.env.Now())})
		return h.c.Status().Update(ctx, &p, client.FieldOwner("finops-operator"))
	}
	var j finopsv1.CostJob
	if err := h.c.Get(ctx, req.NamespacedName, &j); err != nil {
		return client.IgnoreNotFound(err)
	}
	if j.Status.LastExecutionStatus == finopsv1.Pending {
		return nil
	}
	j.Status.LastExecutionStatus = finopsv1.Pending
	return h.c.Status().Update(ctx, &j, client.FieldOwner("finops-operator"))
}

// pushDocument applies the OpenCost pricing document to its ConfigMap.
func (h *finopsHost) pushDocument(ctx context.Context, doc map[string]string) error {
	data, err := safejson.Marshal(doc)
	if err != nil {
		return err
	}
	u := &unstructured.Unstructured{Object: map[string]any{"data": map[string]any{finops.PricingKey: string(data)}}}
	u.SetGroupVersionKind(schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"})
	u.SetNamespace(hostcheck.FinOpsNamespace)
	u.SetName(finops.PricingConfigMap)
	body, err := safejson.Marshal(u.Object)
	if err != nil {
		return err
	}
	return h.c.Patch(ctx, u, client.RawPatch(types.ApplyPatchType, body), client.FieldOwner("finops-operator"), client.ForceOwnership)
}
