package finopstest

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/internal/scenariogen"
	"github.com/condengine/condengine/scenario"
)

// Generate draws snapshot seed of the finops system with SnapshotGen,
// writes it as a scenario file without expectations (Scenario), and
// pushes two in three toward the cases the generator rarely draws:
// deletions before now, failing reads, conditions an earlier reconcile
// left on a Subscription, an Offering being deleted and its ready
// dependents, the parent or target of an active Subscription gone, an
// object made again under its name (the conditions it carries left by
// the earlier one), conditions standing in another order, and the
// pushes every kind takes. A pushed snapshot the engine refuses is given
// as drawn. It is System().Generate.
func Generate(seed int) (*scenario.File, error) {
	f, err := Scenario(SnapshotGen().Example(seed))
	if err != nil {
		return nil, err
	}
	return scenariogen.Generate(f, Name, seed, boundaries, func(b *scenario.File) error {
		_, err := Run(b, false)
		return err
	}), nil
}

// boundaries is the finops system's own push of a generated snapshot.
func boundaries(f *scenario.File, objs []map[string]any, r *rand.Rand) []map[string]any {
	deletedBefore(objs, f.Now.Time, r)
	if r.IntN(3) == 0 {
		failedRead(f, objs, r)
	}
	if r.IntN(3) == 0 {
		carriedSubscriptionConditions(f, objs, r)
	}
	if r.IntN(2) == 0 {
		deleteAnOffering(objs, f.Now.Time, r)
	}
	if r.IntN(2) == 0 {
		readyDependent(objs, r)
	}
	deletingOffering(f, objs, r)
	if r.IntN(2) == 0 {
		objs = goneUnderActive(objs, r)
	}
	if r.IntN(3) == 0 {
		madeAgain(objs, r)
	}
	if r.IntN(3) == 0 {
		reorderConditions(objs, r)
	}
	return objs
}

// reorderConditions turns the condition list of about half the objects
// with two or more conditions around: the order alone is no change, so
// those already as computed still need no write.
func reorderConditions(objs []map[string]any, r *rand.Rand) {
	for _, m := range objs {
		conds, _ := scenariogen.Dig(m, "status", "conditions").([]any)
		if len(conds) < 2 || r.IntN(2) == 0 {
			continue
		}
		slices.Reverse(conds)
	}
}

// madeAgain deletes one object of a kind with conditions and makes it
// again under the same name: a new uid and generation 1, created when its
// last condition was written or a second later, so the conditions it
// carries were (or, within that second, were not) left by the earlier
// object.
func madeAgain(objs []map[string]any, r *rand.Rand) {
	var with []map[string]any
	for _, m := range objs {
		if m == nil || (m["kind"] != "PriceBook" && m["kind"] != "Offering" && m["kind"] != "Subscription") {
			continue
		}
		if conds, _ := scenariogen.Dig(m, "status", "conditions").([]any); len(conds) > 0 {
			with = append(with, m)
		}
	}
	if len(with) == 0 {
		return
	}
	m := with[r.IntN(len(with))]
	var last time.Time
	for _, c := range scenariogen.Dig(m, "status", "conditions").([]any) {
		cm, _ := c.(map[string]any)
		if at, err := time.Parse(time.RFC3339, scenariogen.Text(cm["lastTransitionTime"])); err == nil && at.After(last) {
			last = at
		}
	}
	if last.IsZero() {
		return
	}
	md := m["metadata"].(map[string]any)
	md["uid"] = scenariogen.Text(md["uid"]) + "-again"
	md["generation"] = json.Number("1")
	md["creationTimestamp"] = last.Add(time.Duration(r.IntN(2)) * time.Second).UTC().Format(time.RFC3339)
}

// Scenario writes a FinOps snapshot as a scenario file: every
// object as a manifest (objects of other kinds by identity only), the
// OpenCost document as the pricing ConfigMap, the failing reads and the
// collection run. Failures lose their apiVersion, which the format does
// not carry. The file has the name "generated" and no expectations; like
// bindingtest.Scenario's, it holds one object per kind, namespace and name.
func Scenario(s finops.Snapshot) (*scenario.File, error) {
	f := &scenario.File{Name: "generated", System: Name, Now: metav1.NewTime(s.Now)}
	w := scenariogen.Writer{F: f}
	var err error
	add := func(apiVersion, kind string, obj any) {
		if err == nil {
			err = w.Add(apiVersion, kind, obj)
		}
	}
	for i := range s.PriceBooks {
		add(finopsv1.APIVersion, finopsv1.KindPriceBook, &s.PriceBooks[i])
	}
	for i := range s.Offerings {
		add(finopsv1.APIVersion, finopsv1.KindOffering, &s.Offerings[i])
	}
	for i := range s.Subscriptions {
		add(finopsv1.APIVersion, finopsv1.KindSubscription, &s.Subscriptions[i])
	}
	for i := range s.CostJobs {
		add(finopsv1.APIVersion, finopsv1.KindCostJob, &s.CostJobs[i])
	}
	for i := range s.Providers {
		add(finopsv1.APIVersion, finopsv1.KindFinOpsProvider, &s.Providers[i])
	}
	pricingNS := "opencost"
	for _, o := range s.Objects {
		if o.Kind == "ConfigMap" && o.Name == finops.PricingConfigMap {
			pricingNS = o.Namespace
			if s.PricingDocument != nil {
				continue // written below, with its data
			}
		}
		add(o.APIVersion, o.Kind, map[string]any{"metadata": scenariogen.Identity(o.Namespace, o.Name)})
	}
	if s.PricingDocument != nil {
		doc, derr := json.Marshal(s.PricingDocument)
		if derr != nil {
			return nil, derr
		}
		add("v1", "ConfigMap", map[string]any{"metadata": scenariogen.Identity(pricingNS, finops.PricingConfigMap),
			"data": map[string]string{finops.PricingKey: string(doc)}})
	}
	if err != nil {
		return nil, err
	}
	for _, x := range s.Failures {
		f.Failures = append(f.Failures, scenario.Failure{Kind: x.Kind, Namespace: x.Namespace, Name: x.Name})
	}
	if c := s.Collection; c != nil {
		sc := &scenario.Collection{ScheduledHour: metav1.NewTime(c.ScheduledHour)}
		for _, r := range c.Results {
			sc.Results = append(sc.Results, scenario.CollectionResult{Subscription: r.Subscription.Namespace + "/" + r.Subscription.Name,
				Buckets: r.Buckets, Source: string(r.Source)})
		}
		f.Collection = sc
	}
	return f, nil
}

// deletedBefore moves half the deletion timestamps to an instant before
// now: a minute, a day, a month or years earlier.
func deletedBefore(objs []map[string]any, now time.Time, r *rand.Rand) {
	earlier := []time.Duration{time.Minute, 24 * time.Hour, 31 * 24 * time.Hour, 3 * 366 * 24 * time.Hour}
	for _, m := range objs {
		md, ok := scenariogen.Dig(m, "metadata").(map[string]any)
		if !ok || md["deletionTimestamp"] == nil || r.IntN(2) == 0 {
			continue
		}
		md["deletionTimestamp"] = now.Add(-earlier[r.IntN(len(earlier))]).UTC().Format(time.RFC3339)
	}
}

// failedRead makes the read of one Offering or PriceBook fail.
func failedRead(f *scenario.File, objs []map[string]any, r *rand.Rand) {
	var cands []map[string]any
	for _, m := range objs {
		if m != nil && (m["kind"] == "Offering" || m["kind"] == "PriceBook") {
			cands = append(cands, m)
		}
	}
	if len(cands) == 0 {
		return
	}
	m := cands[r.IntN(len(cands))]
	f.Failures = append(f.Failures, scenario.Failure{Kind: scenariogen.Text(m["kind"]),
		Namespace: scenariogen.Text(scenariogen.Dig(m, "metadata", "namespace")), Name: scenariogen.Text(scenariogen.Dig(m, "metadata", "name"))})
}

// carriedSubscriptionConditions gives one Subscription the conditions an
// earlier reconcile left: a terminal Active (ParentDeactivated) and,
// when no collection ran now, the collector's CostsResolved.
func carriedSubscriptionConditions(f *scenario.File, objs []map[string]any, r *rand.Rand) {
	var subs []map[string]any
	for _, m := range objs {
		if m != nil && m["kind"] == "Subscription" {
			subs = append(subs, m)
		}
	}
	if len(subs) == 0 {
		return
	}
	m := subs[r.IntN(len(subs))]
	st, ok := m["status"].(map[string]any)
	if !ok {
		st = map[string]any{}
		m["status"] = st
	}
	at := f.Now.Add(-48 * time.Hour).UTC().Format(time.RFC3339)
	gen := scenariogen.Dig(m, "metadata", "generation")
	if gen == nil {
		gen = json.Number("1")
	}
	var conds []any
	if r.IntN(2) == 0 {
		conds = append(conds, map[string]any{"type": "Active", "status": "False", "reason": "ParentDeactivated",
			"message": "", "lastTransitionTime": at, "observedGeneration": gen})
		st["deactivatedAt"] = at
	}
	if f.Collection == nil {
		conds = append(conds, map[string]any{"type": "CostsResolved", "status": "True", "reason": "FromDB",
			"message": "", "lastTransitionTime": at, "observedGeneration": gen})
	}
	if len(conds) > 0 {
		st["conditions"] = conds
	}
}

// deleteAnOffering marks one Offering for deletion a minute before now,
// its finalizer holding it, when none is being deleted.
func deleteAnOffering(objs []map[string]any, now time.Time, r *rand.Rand) {
	var offs []map[string]any
	for _, m := range objs {
		if m == nil || m["kind"] != "Offering" {
			continue
		}
		if scenariogen.Dig(m, "metadata", "deletionTimestamp") != nil {
			return
		}
		offs = append(offs, m)
	}
	if len(offs) == 0 {
		return
	}
	md, ok := offs[r.IntN(len(offs))]["metadata"].(map[string]any)
	if !ok {
		return
	}
	md["deletionTimestamp"] = now.Add(-time.Minute).UTC().Format(time.RFC3339)
	md["finalizers"] = []any{finopsv1.OfferingFinalizer}
}

// readyDependent makes a ready Offering require an Offering being
// deleted, or points a ready Subscription at it.
func readyDependent(objs []map[string]any, r *rand.Rand) {
	var deleting, subs []map[string]any
	for _, m := range objs {
		switch {
		case m == nil:
		case m["kind"] == "Offering" && scenariogen.Dig(m, "metadata", "deletionTimestamp") != nil:
			deleting = append(deleting, m)
		case m["kind"] == "Subscription" && scenariogen.Dig(m, "metadata", "deletionTimestamp") == nil:
			subs = append(subs, m)
		}
	}
	if len(deleting) == 0 {
		return
	}
	o := deleting[r.IntN(len(deleting))]
	ref := map[string]any{"namespace": scenariogen.Dig(o, "metadata", "namespace"), "name": scenariogen.Dig(o, "metadata", "name")}
	// Either an Offering or a Subscription depends on it, so that each
	// of the two reasons the delete is held shows on its own.
	if r.IntN(2) == 0 {
		subs = nil
	}
	for _, m := range objs {
		if len(subs) > 0 {
			break
		}
		// A ready Offering that requires the deleted one.
		if m != nil && m["kind"] == "Offering" && scenariogen.Dig(m, "metadata", "deletionTimestamp") == nil && r.IntN(2) == 0 {
			if spec, ok := m["spec"].(map[string]any); ok {
				spec["compatibility"] = map[string]any{"requiredOfferings": []any{ref}}
				if st, ok := m["status"].(map[string]any); ok {
					st["ready"] = "True"
				} else {
					m["status"] = map[string]any{"ready": "True"}
				}
			}
			break
		}
	}
	if len(subs) == 0 {
		return
	}
	sub := subs[r.IntN(len(subs))]
	spec, ok := sub["spec"].(map[string]any)
	if !ok {
		return
	}
	spec["offeringRef"] = ref
	st, ok := sub["status"].(map[string]any)
	if !ok {
		st = map[string]any{}
		sub["status"] = st
	}
	st["ready"] = "True"
}

// deletingOffering gives each Offering being deleted the Ready and
// PricingResolved it carried before, and now and then makes listing its
// dependents fail.
func deletingOffering(f *scenario.File, objs []map[string]any, r *rand.Rand) {
	at := f.Now.Add(-24 * time.Hour).UTC().Format(time.RFC3339)
	for _, m := range objs {
		if m == nil || m["kind"] != "Offering" || scenariogen.Dig(m, "metadata", "deletionTimestamp") == nil || r.IntN(2) == 0 {
			continue
		}
		gen := scenariogen.Dig(m, "metadata", "generation")
		if gen == nil {
			gen = json.Number("1")
		}
		st, ok := m["status"].(map[string]any)
		if !ok {
			st = map[string]any{}
			m["status"] = st
		}
		st["conditions"] = []any{
			map[string]any{"type": "Ready", "status": "True", "reason": "ValidationSucceeded", "message": "", "lastTransitionTime": at, "observedGeneration": gen},
			map[string]any{"type": "PricingResolved", "status": "True", "reason": "PricingResolved", "message": "", "lastTransitionTime": at, "observedGeneration": gen},
		}
		st["ready"] = "True"
		if r.IntN(3) == 0 {
			f.Failures = append(f.Failures, scenario.Failure{Kind: "Subscription"})
		}
	}
}

// goneUnderActive takes the parent or the target of one active
// Subscription out of the snapshot.
func goneUnderActive(objs []map[string]any, r *rand.Rand) []map[string]any {
	var active []map[string]any
	for _, m := range objs {
		if m != nil && m["kind"] == "Subscription" && scenariogen.Dig(m, "status", "activatedAt") != nil {
			active = append(active, m)
		}
	}
	if len(active) == 0 {
		return objs
	}
	// Half the time one with a target, whose loss ends it for good.
	var targeted []map[string]any
	for _, m := range active {
		if scenariogen.Dig(m, "spec", "lifecycle", "targetRef") != nil {
			targeted = append(targeted, m)
		}
	}
	if len(targeted) > 0 && r.IntN(2) == 0 {
		active = targeted
	}
	sub := active[r.IntN(len(active))]
	ref, ok := scenariogen.Dig(sub, "spec", "parent", "subscriptionRef").(map[string]any)
	kind := "Subscription"
	if t, isTarget := scenariogen.Dig(sub, "spec", "lifecycle", "targetRef").(map[string]any); isTarget && (!ok || r.IntN(2) == 0) {
		ref, ok, kind = t, true, scenariogen.Text(t["kind"])
	}
	if !ok {
		return objs
	}
	ns := scenariogen.Text(ref["namespace"])
	if ns == "" {
		ns = scenariogen.Text(scenariogen.Dig(sub, "metadata", "namespace"))
	}
	for _, m := range objs {
		if m != nil && m["kind"] == kind && scenariogen.Text(scenariogen.Dig(m, "metadata", "namespace")) == ns && scenariogen.Text(scenariogen.Dig(m, "metadata", "name")) == scenariogen.Text(ref["name"]) {
			m[scenariogen.Dropped] = true
		}
	}
	return objs
}
