package finops

import (
	"errors"
	"fmt"
	"slices"

	"github.com/condengine/condengine/costjob"
	"github.com/condengine/condengine/offering"
	"github.com/condengine/condengine/pricebook"
	"github.com/condengine/condengine/provider"
	"github.com/condengine/condengine/subscription"
)

// Result is one reconcile of every object of a snapshot.
type Result struct {
	// PriceBooks holds the books' outcomes (index-aligned with
	// Snapshot.PriceBooks), the election and the pushed document.
	PriceBooks pricebook.Result
	// Offerings holds the Offerings' outcomes, index-aligned with
	// Snapshot.Offerings.
	Offerings offering.Result
	// Subscriptions holds the Subscriptions' outcomes, sorted by
	// namespace and name, and problems of the snapshot as a whole.
	Subscriptions subscription.Result
	// CostJobs holds each CostJob's schedule, index-aligned with
	// Snapshot.CostJobs. CostJobs get no status from a reconcile.
	CostJobs []CostJobOutcome
	// Providers holds each FinOpsProvider's plan for OpenCost,
	// index-aligned with Snapshot.Providers. No status is ever written.
	Providers []provider.Plan
}

// CostJobOutcome is what the CostJob reconciler derives: the CronJob
// schedule, and whether the interval was recognised (an unrecognised one
// falls back to daily without a word).
type CostJobOutcome struct {
	Schedule   string
	Recognised bool
}

// Evaluate reconciles every object once against the snapshot as given:
// each kind reads the others' status as the snapshot holds it, not as
// this evaluation decides it, so a change travels one level per
// evaluation, as it does between the operator's reconcilers. Settle
// repeats it to the fixed point.
func Evaluate(s Snapshot) Result {
	r := Result{
		PriceBooks:    pricebook.Evaluate(s.PriceBooks, s.PricingDocument, s.Now),
		Offerings:     offering.Evaluate(s.offeringSnapshot()),
		Subscriptions: subscription.Evaluate(s.subscriptionSnapshot()),
		CostJobs:      make([]CostJobOutcome, len(s.CostJobs)),
		Providers:     make([]provider.Plan, len(s.Providers)),
	}
	for i := range s.CostJobs {
		r.CostJobs[i].Schedule, r.CostJobs[i].Recognised = costjob.Schedule(&s.CostJobs[i])
	}
	for i := range s.Providers {
		r.Providers[i] = provider.Evaluate(&s.Providers[i])
	}
	return r
}

// Changed reports whether the result writes anything: a status, a
// finalizer, or the OpenCost document.
func (r Result) Changed() bool {
	if r.PriceBooks.DocumentChanged {
		return true
	}
	for _, o := range r.PriceBooks.Books {
		if o.Changed {
			return true
		}
	}
	for _, o := range r.Offerings.Offerings {
		if o.Changed || o.AddFinalizer || o.FinalizerRemoved {
			return true
		}
	}
	for _, o := range r.Subscriptions.Subscriptions {
		if o.Write || o.FinalizerRemoved {
			return true
		}
	}
	return false
}

// Apply returns the snapshot as it stands after the host carried out r:
// new statuses written, finalizers added or dropped, objects whose last
// finalizer went while deleting removed, and the pushed document in
// place. s itself is not modified; unchanged objects are shared. The
// collection run, having happened, is not repeated.
func Apply(s Snapshot, r Result) Snapshot {
	next := s
	next.Collection = nil
	next.PriceBooks = slices.Clone(s.PriceBooks)
	for i := range next.PriceBooks {
		if i < len(r.PriceBooks.Books) && r.PriceBooks.Books[i].Changed {
			next.PriceBooks[i].Status = r.PriceBooks.Books[i].Status
		}
	}
	if r.PriceBooks.Document != nil {
		next.PricingDocument = r.PriceBooks.Document
	}
	next.Offerings = make([]offering.Offering, 0, len(s.Offerings))
	for i, o := range s.Offerings {
		if i < len(r.Offerings.Offerings) {
			out := r.Offerings.Offerings[i]
			if out.Changed {
				o.Status = out.Status
			}
			switch {
			case out.AddFinalizer:
				o.Finalizers = append(slices.Clone(o.Finalizers), offering.Finalizer)
			case out.FinalizerRemoved:
				if o.Finalizers = without(o.Finalizers, offering.Finalizer); len(o.Finalizers) == 0 {
					continue // the API server deletes it now
				}
			}
		}
		next.Offerings = append(next.Offerings, o)
	}
	byKey := make(map[subscription.Reference]int, len(r.Subscriptions.Subscriptions))
	for i, o := range r.Subscriptions.Subscriptions {
		byKey[subscription.Reference{Namespace: o.Namespace, Name: o.Name}] = i
	}
	next.Subscriptions = make([]subscription.Subscription, 0, len(s.Subscriptions))
	for _, x := range s.Subscriptions {
		if i, ok := byKey[x.Key()]; ok {
			out := r.Subscriptions.Subscriptions[i]
			if out.Write {
				x.Status = out.Status
			}
			if out.FinalizerRemoved {
				if x.Finalizers = without(x.Finalizers, subscription.Finalizer); len(x.Finalizers) == 0 && x.IsDeleting() {
					continue
				}
			}
		}
		next.Subscriptions = append(next.Subscriptions, x)
	}
	return next
}

func without(list []string, s string) []string {
	return slices.DeleteFunc(slices.Clone(list), func(x string) bool { return x == s })
}

// ErrNotSettled is returned by Settle when the rounds run out while
// evaluations still write.
var ErrNotSettled = errors.New("evaluation did not settle")

// Settle evaluates and applies until an evaluation writes nothing, at
// most maxRounds times. It returns the settled snapshot and the number of
// evaluations that wrote something. When maxRounds is reached first it
// returns the last snapshot and an error wrapping ErrNotSettled. Each
// round moves a cascade by one level, so a chain of n requirements needs
// about n rounds. A collection run in s happens in the first round only.
func Settle(s Snapshot, maxRounds int) (Snapshot, int, error) {
	for round := 0; round < maxRounds; round++ {
		r := Evaluate(s)
		if !r.Changed() {
			return s, round, nil
		}
		s = Apply(s, r)
	}
	if !Evaluate(s).Changed() {
		return s, maxRounds, nil
	}
	return s, maxRounds, fmt.Errorf("%w after %d rounds", ErrNotSettled, maxRounds)
}
