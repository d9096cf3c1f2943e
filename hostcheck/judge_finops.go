package hostcheck

import (
	"encoding/json"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/subscription"
)

// targetsKind is the name readKinds gives the Subscriptions' targets:
// Gets of the objects a targetRef names fail (and lists of ConfigMaps),
// while the pricing ConfigMap, which a host reads too, still answers.
const targetsKind = "targets"

// readObjectError is the error a Get of one object fails with now: a
// ConfigMap target's while targets fail, every ConfigMap's (the pricing
// one included) while ConfigMaps fail, else the kind's.
func (s *finopsWorld) readObjectError(kind, namespace, _ string) error {
	if kind == "ConfigMap" {
		if s.unreadable[kind] {
			return s.failed(kind)
		}
		if s.unreadable[targetsKind] && namespace != FinOpsNamespace {
			return s.failed("target")
		}
		return nil
	}
	return s.readError(kind)
}

// pass is the engine's answer for one pass of a FinOps host over its
// view, with the reads that fail now weighed as failed reads: a failed
// list of books or Offerings leaves the kind out (and every
// Subscription's Offering unread), a failed Get of a target leaves that
// target unread. A host whose Subscriptions cannot be read writes
// nothing, and nothing is judged.
func (s *finopsWorld) pass(v PassView) (PassAnswer, error) {
	if len(v.Judged) == 0 {
		return PassAnswer{}, nil
	}
	snap, err := finopsSnapshot(v.Objects, v.Now)
	if err != nil {
		return PassAnswer{}, err
	}
	snap.Collection, _ = v.Observed.(*subscription.Collection)
	if s.unreadable[finopsv1.KindPriceBook] {
		snap.PriceBooks = nil
		snap.Failures = append(snap.Failures, finops.Failure{Kind: finopsv1.KindPriceBook})
	}
	offeringsFailed := s.unreadable[finopsv1.KindOffering]
	if offeringsFailed {
		snap.Offerings = nil
		snap.Failures = append(snap.Failures, finops.Failure{Kind: finopsv1.KindOffering})
	}
	var objects []finops.ObjectRef
	unread := map[finops.ObjectRef]bool{}
	for _, x := range snap.Subscriptions {
		if ref := x.Spec.OfferingRef; offeringsFailed {
			snap.Failures = append(snap.Failures, finops.Failure{Kind: finopsv1.KindOffering, Namespace: ref.Namespace, Name: ref.Name})
		}
		if x.Spec.Lifecycle == nil || x.Spec.Lifecycle.TargetRef == nil {
			continue
		}
		ref := x.Spec.Lifecycle.TargetRef
		if s.readObjectError(ref.Kind, ref.Namespace, ref.Name) != nil {
			snap.Failures = append(snap.Failures, finops.Failure{APIVersion: ref.APIVersion, Kind: ref.Kind, Namespace: ref.Namespace, Name: ref.Name})
			unread[finops.ObjectRef{APIVersion: ref.APIVersion, Kind: ref.Kind, Namespace: ref.Namespace, Name: ref.Name}] = true
		}
	}
	for _, o := range snap.Objects {
		if !unread[o] {
			objects = append(objects, o)
		}
	}
	snap.Objects = objects
	res, err := finops.Evaluate(snap)
	if err != nil {
		return PassAnswer{}, err
	}
	out := PassAnswer{Writes: map[ObjectKey][]Written{}}
	add := func(kind string, o *conditions.Outcome, status any) error {
		st, err := statusFields(status)
		if err != nil {
			return err
		}
		addWritten(out.Writes, objectKey(kind, o.Namespace, o.Name), Written{Conditions: o.Owned, Status: st})
		return nil
	}
	for i := range res.PriceBooks.Books {
		if err := add(finopsv1.KindPriceBook, &res.PriceBooks.Books[i].Outcome, res.PriceBooks.Books[i].Status); err != nil {
			return PassAnswer{}, err
		}
	}
	for i := range res.Offerings.Offerings {
		if err := add(finopsv1.KindOffering, &res.Offerings.Offerings[i].Outcome, res.Offerings.Offerings[i].Status); err != nil {
			return PassAnswer{}, err
		}
	}
	for i := range res.Subscriptions.Subscriptions {
		if err := add(finopsv1.KindSubscription, &res.Subscriptions.Subscriptions[i].Outcome, res.Subscriptions.Subscriptions[i].Status); err != nil {
			return PassAnswer{}, err
		}
	}
	return out, nil
}

// statusFields is a status's fields besides its conditions, as JSON
// decodes them; never nil, so that they are judged.
func statusFields(status any) (map[string]any, error) {
	st := map[string]any{}
	data, err := json.Marshal(status)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, err
	}
	delete(st, "conditions")
	return st, nil
}
