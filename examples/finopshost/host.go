package finopshost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/examples/internal/typedlist"
	"github.com/condengine/condengine/finops"
)

// FieldManager owns every status this host writes.
const FieldManager = "finops-operator"

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
	mu       sync.Mutex
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
	return &Host{client: c, namespace: operatorNamespace, Interval: 10 * time.Second}, nil
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
	// Errors are failed writes, by object.
	Errors map[string]error
	// Retry reports a transient outcome (a failed read): pass again soon.
	Retry bool
}

// Changed reports whether the pass wrote anything; a family has settled
// when a pass changes nothing.
func (r Report) Changed() bool { return len(r.Written)+len(r.Finalizers) > 0 }

// snapshot reads everything one pass evaluates.
func (h *Host) snapshot(ctx context.Context, now time.Time) (finops.Snapshot, error) {
	s := finops.Snapshot{Now: now}
	var err error
	if s.PriceBooks, err = typedlist.List[finopsv1.PriceBook](ctx, h.client, PriceBookGVK); err != nil {
		return s, err
	}
	if s.Offerings, err = typedlist.List[finopsv1.Offering](ctx, h.client, OfferingGVK); err != nil {
		return s, err
	}
	if s.Subscriptions, err = typedlist.List[finopsv1.Subscription](ctx, h.client, SubscriptionGVK); err != nil {
		return s, err
	}
	for i := range s.Subscriptions {
		x := &s.Subscriptions[i]
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
	// object it was computed from by UID, for the resourceVersion the
	// write is guarded by.
	books := byUID(s.PriceBooks)
	for _, o := range r.PriceBooks.Books {
		if b := books[o.UID]; b != nil && o.Write {
			h.writeStatus(ctx, PriceBookGVK, b.ObjectMeta, &o.Outcome, o.Status, &rep, fail)
		}
	}
	if r.PriceBooks.DocumentChanged && r.PriceBooks.Document != nil {
		h.writeDocument(ctx, r.PriceBooks.Document, &rep, fail)
	}
	offs := byUID(s.Offerings)
	for _, o := range r.Offerings.Offerings {
		x := offs[o.UID]
		if x == nil {
			continue
		}
		if o.Write {
			h.writeStatus(ctx, OfferingGVK, x.ObjectMeta, &o.Outcome, o.Status, &rep, fail)
		}
		switch o.Finalizer {
		case conditions.FinalizerAdd:
			h.patchFinalizers(ctx, OfferingGVK, x.Namespace, x.Name, append(slices.Clone(x.Finalizers), finopsv1.OfferingFinalizer), "+", &rep, fail)
		case conditions.FinalizerRemove:
			h.patchFinalizers(ctx, OfferingGVK, x.Namespace, x.Name, slices.DeleteFunc(slices.Clone(x.Finalizers), func(f string) bool { return f == finopsv1.OfferingFinalizer }), "-", &rep, fail)
		}
		rep.Retry = rep.Retry || o.Retry
	}
	listed := byUID(s.Subscriptions)
	for _, o := range r.Subscriptions.Subscriptions {
		if x := listed[o.UID]; x != nil && o.Write {
			h.writeStatus(ctx, SubscriptionGVK, x.ObjectMeta, &o.Outcome, o.Status, &rep, fail)
		}
		rep.Retry = rep.Retry || o.Retry
	}
	return rep, nil
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

// writeStatus applies the outcome's status with only the kind's own
// condition types (o.Owned): another controller's conditions stay its
// own. The apply carries the resourceVersion the status was computed
// from: the status subresource ignores a UID, so without it a status
// computed for a deleted object could land on one created again under
// the same name.
func (h *Host) writeStatus(ctx context.Context, gvk schema.GroupVersionKind, obj metav1.ObjectMeta, o *conditions.Outcome, status any, rep *Report, fail func(string, error)) {
	what := gvk.Kind + " " + obj.Namespace + "/" + obj.Name
	st, err := ownStatus(status, o.Owned)
	if err != nil {
		fail(what, err)
		return
	}
	u := &unstructured.Unstructured{Object: map[string]any{"status": st}}
	u.SetGroupVersionKind(gvk)
	u.SetNamespace(obj.Namespace)
	u.SetName(obj.Name)
	u.SetUID(obj.UID)
	u.SetResourceVersion(obj.ResourceVersion)
	if err := h.client.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner(FieldManager), client.ForceOwnership); err != nil {
		fail(what, err)
		return
	}
	rep.Written = append(rep.Written, what)
}

// ownStatus is a status as JSON-like values, its conditions replaced by
// the owned ones.
func ownStatus(status any, owned []metav1.Condition) (map[string]any, error) {
	var st map[string]any
	data, err := json.Marshal(status)
	if err == nil {
		err = json.Unmarshal(data, &st)
	}
	if err != nil {
		return nil, err
	}
	var conds []any
	data, err = json.Marshal(owned)
	if err == nil {
		err = json.Unmarshal(data, &conds)
	}
	if err != nil {
		return nil, err
	}
	if conds == nil {
		conds = []any{}
	}
	st["conditions"] = conds
	return st, nil
}

func (h *Host) writeDocument(ctx context.Context, doc map[string]string, rep *Report, fail func(string, error)) {
	what := "ConfigMap " + h.namespace + "/" + finops.PricingConfigMap
	data, err := json.Marshal(doc)
	if err != nil {
		fail(what, err)
		return
	}
	u := &unstructured.Unstructured{Object: map[string]any{"data": map[string]any{finops.PricingKey: string(data)}}}
	u.SetGroupVersionKind(configMapGVK)
	u.SetNamespace(h.namespace)
	u.SetName(finops.PricingConfigMap)
	if err := h.client.Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner(FieldManager), client.ForceOwnership); err != nil {
		fail(what, err)
		return
	}
	rep.Written = append(rep.Written, what)
}

func (h *Host) patchFinalizers(ctx context.Context, gvk schema.GroupVersionKind, ns, name string, finalizers []string, sign string, rep *Report, fail func(string, error)) {
	what := gvk.Kind + " " + ns + "/" + name
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gvk)
	if err := h.client.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, u); err != nil {
		fail(what, err)
		return
	}
	base := u.DeepCopy()
	u.SetFinalizers(finalizers)
	if err := h.client.Patch(ctx, u, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})); err != nil {
		fail(what, err)
		return
	}
	rep.Finalizers = append(rep.Finalizers, what+" "+sign+"finalizer")
}
