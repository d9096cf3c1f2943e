package finops

import (
	"time"

	"github.com/condengine/condengine/offering"
	"github.com/condengine/condengine/pricebook"
)

// Snapshot is the FinOps world at one instant: every object the operator
// watches, as the API server holds it, status included; the reads that
// fail; and what OpenCost holds now. Evaluate reads it and never
// modifies it. The order of every list is irrelevant to the result.
type Snapshot struct {
	// Now is the instant of the evaluation.
	Now time.Time
	// PriceBooks are every PriceBook, across all namespaces.
	PriceBooks []pricebook.PriceBook
	// Offerings are every Offering, across all namespaces.
	Offerings []offering.Offering
	// Others are objects of any other kind, kept by identity only (a
	// Subscription's targetRef may name one).
	Others []Object
	// Failures are reads that fail with an error other than not found.
	Failures []Failure
	// PricingDocument is the OpenCost pricing document as it stands
	// before this evaluation; nil when none was ever pushed.
	PricingDocument map[string]string
}

// Object identifies an object of a kind this package does not evaluate.
type Object struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
}

// Failure names reads that fail. An empty APIVersion, Namespace or Name
// matches any; a Failure with no name says listing that kind fails.
type Failure struct {
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name,omitempty"`
}

func (s *Snapshot) offeringFailures() []offering.Failure {
	if len(s.Failures) == 0 {
		return nil
	}
	out := make([]offering.Failure, len(s.Failures))
	for i, f := range s.Failures {
		out[i] = offering.Failure{Kind: f.Kind, Namespace: f.Namespace, Name: f.Name}
	}
	return out
}
