package subscriptiontest

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/manifest"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/subscription"
)

const group = finopsv1.GroupName + "/"

// FromScenario builds the Subscription snapshot of a finops scenario:
// Subscriptions and Offerings decoded, every other manifest (CostJobs and
// FinOpsProviders included) kept as an object a targetRef may name, the
// failures and the collection run carried over. It fails on a manifest
// that does not decode, a collection result whose subscription is not
// "namespace/name", or an unknown result source.
func FromScenario(f *scenario.File) (subscription.Snapshot, error) {
	snap := subscription.Snapshot{Now: f.Now.Time}
	for i, raw := range f.Objects {
		m, err := manifest.ReadHeader(raw)
		if err == nil && m.Kind == "" {
			err = errors.New("kind: required")
		}
		if err != nil {
			return snap, fmt.Errorf("objects[%d]: %w", i, err)
		}
		switch {
		case m.Kind == finopsv1.KindSubscription && strings.HasPrefix(m.APIVersion, group):
			var s finopsv1.Subscription
			if err := json.Unmarshal(raw, &s); err != nil {
				return snap, fmt.Errorf("objects[%d] (Subscription %s/%s): %w", i, m.Metadata.Namespace, m.Metadata.Name, err)
			}
			snap.Subscriptions = append(snap.Subscriptions, s)
		case m.Kind == finopsv1.KindOffering && strings.HasPrefix(m.APIVersion, group):
			var o finopsv1.Offering
			if err := json.Unmarshal(raw, &o); err != nil {
				return snap, fmt.Errorf("objects[%d] (Offering %s/%s): %w", i, m.Metadata.Namespace, m.Metadata.Name, err)
			}
			snap.Offerings = append(snap.Offerings, o)
		default:
			snap.Objects = append(snap.Objects, subscription.ObjectRef{APIVersion: m.APIVersion, Kind: m.Kind,
				Namespace: m.Metadata.Namespace, Name: m.Metadata.Name})
		}
	}
	for _, fl := range f.Failures {
		snap.Failures = append(snap.Failures, subscription.ObjectRef{Kind: fl.Kind, Namespace: fl.Namespace, Name: fl.Name})
	}
	col, err := Collection(f.Collection)
	if err != nil {
		return snap, err
	}
	snap.Collection = col
	return snap, nil
}

// Collection converts a scenario's collection block into the charge
// collection run it describes; nil stays nil. It fails where
// scenario.Collection.Validate does, naming the result's path in the
// file.
func Collection(c *scenario.Collection) (*subscription.Collection, error) {
	if c == nil {
		return nil, nil
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	col := &subscription.Collection{ScheduledHour: c.ScheduledHour.Time}
	for _, r := range c.Results {
		ns, name, _ := scenario.SplitName(r.Subscription)
		col.Results = append(col.Results, subscription.CollectionResult{
			Subscription: finopsv1.Reference{Namespace: ns, Name: name}, Buckets: r.Buckets, Source: subscription.Source(r.Source)})
	}
	return col, nil
}

// Outcomes turns an evaluation into scenario outcomes, one per
// Subscription.
func Outcomes(res subscription.Result) ([]scenario.Outcome, error) {
	out := make([]scenario.Outcome, 0, len(res.Subscriptions))
	for _, o := range res.Subscriptions {
		st, err := json.Marshal(o.Status)
		if err != nil {
			return nil, err
		}
		out = append(out, scenario.Outcome{Kind: finopsv1.KindSubscription, Namespace: o.Namespace, Name: o.Name,
			Conditions: o.Status.Conditions, Status: st, Finalizer: o.Finalizer, Write: o.Write})
	}
	return out, nil
}

// Run is a scenario.Runner for the kinds this module's subscription,
// costjob and provider packages own: Subscriptions are evaluated;
// CostJobs and FinOpsProviders get no conditions and keep their status
// as given (neither reconciler writes one). Offerings are read, not
// evaluated: package finops runs the whole system.
func Run(f *scenario.File) ([]scenario.Outcome, error) {
	snap, err := FromScenario(f)
	if err != nil {
		return nil, err
	}
	res, err := subscription.Evaluate(snap)
	if err != nil {
		return nil, err
	}
	if len(res.Errors) > 0 {
		return nil, fmt.Errorf("snapshot: %s", strings.Join(res.Errors, "; "))
	}
	out, err := Outcomes(res)
	if err != nil {
		return nil, err
	}
	for i, raw := range f.Objects {
		m, _ := manifest.ReadHeader(raw)
		if !strings.HasPrefix(m.APIVersion, group) {
			continue
		}
		var status any
		switch m.Kind {
		case finopsv1.KindCostJob:
			var j finopsv1.CostJob
			if err := json.Unmarshal(raw, &j); err != nil {
				return nil, fmt.Errorf("objects[%d] (CostJob): %w", i, err)
			}
			status = j.Status
		case finopsv1.KindFinOpsProvider:
			var p finopsv1.FinOpsProvider
			if err := json.Unmarshal(raw, &p); err != nil {
				return nil, fmt.Errorf("objects[%d] (FinOpsProvider): %w", i, err)
			}
			status = p.Status
		default:
			continue
		}
		st, err := json.Marshal(status)
		if err != nil {
			return nil, err
		}
		out = append(out, scenario.Outcome{Kind: m.Kind, Namespace: m.Metadata.Namespace, Name: m.Metadata.Name, Status: st})
	}
	return out, nil
}
