package finopstest

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/internal/wholesec"
	"github.com/condengine/condengine/manifest"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/subscription/subscriptiontest"
)

// Snapshot builds the snapshot a finops scenario describes: its objects
// decoded, its failures and its collection run carried over.
func Snapshot(f *scenario.File) (finops.Snapshot, error) {
	if f.System != Name {
		return finops.Snapshot{}, fmt.Errorf("scenario system is %q, not %q", f.System, Name)
	}
	if err := f.Validate(); err != nil {
		return finops.Snapshot{}, err
	}
	s, err := finops.DecodeObjects(f.Objects)
	if err != nil {
		return finops.Snapshot{}, fmt.Errorf("objects: %w", err)
	}
	s.Now = f.Now.Time
	for _, x := range f.Failures {
		s.Failures = append(s.Failures, finops.Failure{Kind: x.Kind, Namespace: x.Namespace, Name: x.Name})
	}
	col, err := subscriptiontest.Collection(f.Collection)
	if err != nil {
		return finops.Snapshot{}, err
	}
	s.Collection = col
	return s, nil
}

// Run is the scenario runner of the finops system (System().Run): it
// evaluates a finops scenario once (one reconcile of every object) and
// returns an outcome per object of a FinOps kind, sorted by kind,
// namespace and name. An outcome's conditions are what the object
// carries once the reconcile is done: the computed list where a write is
// due, otherwise the list the object already had, exactly as it stands,
// read at whole seconds as the API server stores it. CostJobs and
// FinOpsProviders keep the status they came with, since no reconciler
// writes one. When the evaluation pushes an OpenCost document, it appears
// as an outcome of kind ConfigMap named finops.PricingConfigMap whose
// status is {"document": {...}, "changed": bool}, with Write set when the
// document changed. With explain, the evaluation records why
// (finops.Explain), and the outcome of each PriceBook, Offering and
// Subscription also carries its computed conditions and their
// provenance. The reconciler holds no write back, so no outcome has a
// RetryAt.
func Run(f *scenario.File, explain bool) ([]scenario.Outcome, error) {
	s, err := Snapshot(f)
	if err != nil {
		return nil, err
	}
	evaluate := finops.Evaluate
	if explain {
		evaluate = finops.Explain
	}
	r, err := evaluate(s)
	if err != nil {
		return nil, err
	}
	if len(r.Subscriptions.Errors) > 0 {
		return nil, fmt.Errorf("snapshot: %s", strings.Join(r.Subscriptions.Errors, "; "))
	}
	var out []scenario.Outcome
	// carried is what an object carries once the reconcile is done: the
	// computed conditions where a write is due, else the ones it had,
	// exactly as they stand (nothing changed, a stale snapshot), read at
	// whole seconds.
	held := map[objectKey][]metav1.Condition{}
	note := func(kind, ns, name string, uid types.UID, conds []metav1.Condition) {
		held[objectKey{kind, ns, name, uid}] = conds
	}
	for i := range s.PriceBooks {
		b := &s.PriceBooks[i]
		note(finopsv1.KindPriceBook, b.Namespace, b.Name, b.UID, b.Status.Conditions)
	}
	for i := range s.Offerings {
		o := &s.Offerings[i]
		note(finopsv1.KindOffering, o.Namespace, o.Name, o.UID, o.Status.Conditions)
	}
	for i := range s.Subscriptions {
		o := &s.Subscriptions[i]
		note(finopsv1.KindSubscription, o.Namespace, o.Name, o.UID, o.Status.Conditions)
	}
	carried := func(o *conditions.Outcome) []metav1.Condition {
		if o.Write {
			return o.Conditions
		}
		return wholesec.Conditions(held[objectKey{o.Kind, o.Namespace, o.Name, o.UID}])
	}
	add := func(kind, ns, name string, status any, o scenario.Outcome) error {
		st, err := json.Marshal(status)
		if err != nil {
			return fmt.Errorf("%s %s: %w", kind, manifest.JoinName(ns, name), err)
		}
		o.Kind, o.Namespace, o.Name, o.Status = kind, ns, name, st
		out = append(out, o)
		return nil
	}
	// explained adds the computed list and its provenance, with explain.
	explained := func(o scenario.Outcome, computed []metav1.Condition, prov []conditions.Provenance) scenario.Outcome {
		if explain {
			o.Computed, o.Provenance = computed, prov
			if computed == nil { // answered: not nil, even when empty
				o.Computed = []metav1.Condition{}
			}
		}
		return o
	}
	for _, o := range r.PriceBooks.Books {
		if err := add(o.Kind, o.Namespace, o.Name, o.Status, explained(
			scenario.Outcome{Conditions: carried(&o.Outcome), Write: o.Write, Skip: o.Skip}, o.Status.Conditions, o.Provenance)); err != nil {
			return nil, err
		}
	}
	for _, o := range r.Offerings.Offerings {
		if err := add(o.Kind, o.Namespace, o.Name, o.Status, explained(
			scenario.Outcome{Conditions: carried(&o.Outcome), Write: o.Write, Skip: o.Skip, Finalizer: o.Finalizer}, o.Status.Conditions, o.Provenance)); err != nil {
			return nil, err
		}
	}
	for _, o := range r.Subscriptions.Subscriptions {
		if err := add(o.Kind, o.Namespace, o.Name, o.Status, explained(
			scenario.Outcome{Conditions: carried(&o.Outcome), Write: o.Write, Skip: o.Skip, Finalizer: o.Finalizer}, o.Status.Conditions, o.Provenance)); err != nil {
			return nil, err
		}
	}
	for _, o := range r.CostJobs {
		if err := add(o.Kind, o.Namespace, o.Name, o.Status, scenario.Outcome{Skip: o.Skip}); err != nil {
			return nil, err
		}
	}
	for _, o := range r.Providers {
		if err := add(o.Kind, o.Namespace, o.Name, o.Status, scenario.Outcome{Conditions: o.Conditions, Skip: o.Skip}); err != nil {
			return nil, err
		}
	}
	if r.PriceBooks.Document != nil {
		ns := ""
		for _, o := range s.Objects {
			if o.Kind == "ConfigMap" && o.Name == finops.PricingConfigMap {
				ns = o.Namespace
			}
		}
		doc := map[string]any{"document": r.PriceBooks.Document, "changed": r.PriceBooks.DocumentChanged}
		if err := add("ConfigMap", ns, finops.PricingConfigMap, doc, scenario.Outcome{Write: r.PriceBooks.DocumentChanged}); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(out, func(a, b scenario.Outcome) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	return out, nil
}

// objectKey identifies an object of the finops system by kind, namespace,
// name and UID.
type objectKey struct {
	kind, ns, name string
	uid            types.UID
}
