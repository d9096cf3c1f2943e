package hostcheck

import (
	"context"
	"strconv"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	st "github.com/condengine/condengine/subscription/subscriptiontest"
)

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
// block, and bumps the generation. One spec edit in four (variants 6
// and 7) instead makes reads of one kind start failing, or stop.
// Other writers' changes are conditions of their own on our kinds, and
// a run's record on a CostJob.
func (s *finopsWorld) change(ctx context.Context, w client.Client, e Event) (string, error) {
	if e.Op == Edit && e.Variant >= 6 {
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
