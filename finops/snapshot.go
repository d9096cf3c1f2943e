package finops

import (
	"time"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/offering"
	"github.com/condengine/condengine/subscription"
)

// Snapshot is the FinOps world at one instant: every object the operator
// watches, as the API server holds it, status included; the reads that
// fail; the charge collection run that happened now, if any; and what
// OpenCost holds. Evaluate reads it and never modifies it. The order of
// every list is irrelevant to the result.
type Snapshot struct {
	// Now is the instant of the evaluation.
	Now time.Time
	// PriceBooks are every PriceBook, across all namespaces.
	PriceBooks []finopsv1.PriceBook
	// Offerings are every Offering, across all namespaces.
	Offerings []finopsv1.Offering
	// Subscriptions are every Subscription, across all namespaces.
	Subscriptions []finopsv1.Subscription
	// CostJobs are every CostJob; they carry no conditions.
	CostJobs []finopsv1.CostJob
	// Providers are the FinOpsProviders; they carry no status at all.
	Providers []finopsv1.FinOpsProvider
	// Objects are objects of any other kind, kept by identity only (a
	// Subscription's targetRef may name one): the name and type
	// subscription.Snapshot uses for the same list.
	Objects []ObjectRef
	// Failures are reads that fail with an error other than not found.
	Failures []Failure
	// Collection is the last SubscriptionChargeCollection run, at or
	// before Now: a host hands it to every pass until a newer one runs;
	// nil when none has run yet.
	Collection *subscription.Collection
	// PricingDocument is the OpenCost pricing document as it stands
	// before this evaluation; nil when none was ever pushed.
	PricingDocument map[string]string
}

// ObjectRef identifies an object of a kind this package does not
// evaluate; it is subscription.ObjectRef.
type ObjectRef = subscription.ObjectRef

// Failure names reads that fail. An empty APIVersion matches any
// version. For PriceBook and Offering reads an empty Namespace or Name
// matches any, and a Failure with no name says listing that kind fails;
// Subscription gates match failures exactly.
type Failure struct {
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name,omitempty"`
}

func (s *Snapshot) offeringSnapshot() offering.Snapshot {
	os := offering.Snapshot{Now: s.Now, Offerings: s.Offerings, PriceBooks: s.PriceBooks}
	if len(s.Failures) > 0 {
		os.Failures = make([]offering.Failure, len(s.Failures))
		for i, f := range s.Failures {
			os.Failures[i] = offering.Failure{Kind: f.Kind, Namespace: f.Namespace, Name: f.Name}
		}
	}
	if len(s.Subscriptions) > 0 {
		os.Dependents = make([]offering.Dependent, len(s.Subscriptions))
		for i := range s.Subscriptions {
			os.Dependents[i] = dependentOf(&s.Subscriptions[i])
		}
	}
	return os
}

// subscriptionSnapshot hands the Subscription evaluator every object a
// targetRef may name: the other FinOps kinds and the Objects.
func (s *Snapshot) subscriptionSnapshot() subscription.Snapshot {
	ss := subscription.Snapshot{Now: s.Now, Subscriptions: s.Subscriptions, Offerings: s.Offerings, Collection: s.Collection}
	ss.Objects = make([]subscription.ObjectRef, 0, len(s.Objects)+len(s.PriceBooks)+len(s.CostJobs)+len(s.Providers))
	ss.Objects = append(ss.Objects, s.Objects...)
	for i := range s.PriceBooks {
		ss.Objects = append(ss.Objects, subscription.ObjectRef{APIVersion: finopsv1.APIVersion, Kind: finopsv1.KindPriceBook,
			Namespace: s.PriceBooks[i].Namespace, Name: s.PriceBooks[i].Name})
	}
	for i := range s.CostJobs {
		ss.Objects = append(ss.Objects, subscription.ObjectRef{APIVersion: finopsv1.APIVersion, Kind: finopsv1.KindCostJob,
			Namespace: s.CostJobs[i].Namespace, Name: s.CostJobs[i].Name})
	}
	for i := range s.Providers {
		ss.Objects = append(ss.Objects, subscription.ObjectRef{APIVersion: finopsv1.APIVersion, Kind: finopsv1.KindFinOpsProvider,
			Namespace: s.Providers[i].Namespace, Name: s.Providers[i].Name})
	}
	for _, f := range s.Failures {
		ss.Failures = append(ss.Failures, subscription.ObjectRef{APIVersion: f.APIVersion, Kind: f.Kind, Namespace: f.Namespace, Name: f.Name})
	}
	return ss
}
