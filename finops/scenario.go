package finops

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/condengine/condengine/offering"
	"github.com/condengine/condengine/pricebook"
	"github.com/condengine/condengine/scenario"
)

// RunScenario evaluates a finops scenario once (one reconcile of every
// object, decisions §11) and returns an outcome per evaluated object,
// sorted by kind, namespace and name. The OpenCost document is reported
// as an outcome of kind ConfigMap named PricingConfigMap whose status is
// {"document": {...}, "changed": bool}, present when this evaluation
// pushes a document.
func RunScenario(f *scenario.File) ([]scenario.Outcome, error) {
	if f.System != scenario.SystemFinOps {
		return nil, fmt.Errorf("finops: scenario system is %q", f.System)
	}
	s, err := DecodeObjects(f.Objects)
	if err != nil {
		return nil, fmt.Errorf("objects: %w", err)
	}
	s.Now = f.Now.Time
	for _, x := range f.Failures {
		s.Failures = append(s.Failures, Failure{Kind: x.Kind, Namespace: x.Namespace, Name: x.Name})
	}
	r := Evaluate(s)
	var out []scenario.Outcome
	for i, b := range s.PriceBooks {
		o := r.PriceBooks.Books[i]
		st, err := json.Marshal(o.Status)
		if err != nil {
			return nil, err
		}
		out = append(out, scenario.Outcome{Kind: pricebook.Kind, Namespace: b.Namespace, Name: b.Name,
			Conditions: o.Status.Conditions, Status: st, Write: o.Changed})
	}
	for i, x := range s.Offerings {
		o := r.Offerings.Offerings[i]
		st, err := json.Marshal(o.Status)
		if err != nil {
			return nil, err
		}
		out = append(out, scenario.Outcome{Kind: offering.Kind, Namespace: x.Namespace, Name: x.Name,
			Conditions: o.Status.Conditions, Status: st, Write: o.Changed, FinalizerRemoved: o.FinalizerRemoved})
	}
	if r.PriceBooks.Document != nil {
		st, err := json.Marshal(map[string]any{"document": r.PriceBooks.Document, "changed": r.PriceBooks.DocumentChanged})
		if err != nil {
			return nil, err
		}
		ns := ""
		for _, o := range s.Others {
			if o.Kind == "ConfigMap" && o.Name == PricingConfigMap {
				ns = o.Namespace
			}
		}
		out = append(out, scenario.Outcome{Kind: "ConfigMap", Namespace: ns, Name: PricingConfigMap,
			Status: st, Write: r.PriceBooks.DocumentChanged})
	}
	slices.SortFunc(out, func(a, b scenario.Outcome) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	return out, nil
}
