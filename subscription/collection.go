package subscription

import (
	"fmt"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/billing"
	"github.com/condengine/condengine/conditions"
)

// collect applies the snapshot's charge collection run to one
// Subscription: status.costs, the CostsResolved condition and the
// finalizer. Like the run itself it reads the Subscription as the snapshot
// holds it, not as this evaluation's reconcile leaves it. It returns the
// CostsResolved condition to write, or nil when the run writes none.
func (e *evaluator) collect(i int32, out *Outcome, st *finopsv1.SubscriptionStatus) *metav1.Condition {
	c := e.collection
	if c == nil {
		return nil
	}
	s := e.nodes[i].sub
	in := &s.Status
	res, listed := e.results[s.Key()]
	scheduled := c.ScheduledHour.UTC().Truncate(time.Hour)
	failed := listed && res.Source == SourceError
	if failed {
		out.Errors = append(out.Errors, "the collection run recorded an error for this Subscription")
	}

	var written *metav1.Condition
	var sched *billing.Schedule
	var off *finopsv1.Offering
	if in.ActivatedAt != nil {
		var unreadable bool
		off, unreadable = e.offering(s.Spec.OfferingRef)
		if unreadable || off == nil {
			failed = true
			out.Errors = append(out.Errors, fmt.Sprintf("the collection run cannot read Offering %s", s.Spec.OfferingRef))
		} else if fee := off.Spec.Pricing.SubscriptionFee; fee != nil {
			sc, err := schedule(fee, in)
			if err != nil {
				failed = true
				out.Errors = append(out.Errors, msg("subscription fee of Offering %s: %v", s.Spec.OfferingRef, err))
			} else {
				sched = &sc
			}
		}
		if !failed && listed && res.Buckets > 0 && (res.Source == SourceDB || res.Source == SourceCalculator) {
			if sched != nil && !usageBilled(s, off) {
				b, err := sched.Buckets(scheduled, nil)
				if err != nil {
					failed = true
					out.Errors = append(out.Errors, msg("cost buckets: %v", err))
				} else {
					st.Costs = b[:]
				}
			}
			if !failed {
				reason, m := ReasonFromDB, msgFromDB
				if res.Source == SourceCalculator {
					reason, m = ReasonFromCalculator, msgFromCalc
				}
				written = &metav1.Condition{Type: TypeCostsResolved, Status: cTrue, Reason: reason,
					Message: m, ObservedGeneration: s.Generation}
			}
		}
	}

	// A run selects Subscriptions by activatedAt, so one that never
	// activated is never visited and its finalizer stays (HazardNeverActivated).
	if s.IsDeleting() && holdsFinalizer(s) && in.ActivatedAt != nil && in.DeactivatedAt != nil && !failed {
		through := scheduled
		if usageBilled(s, off) && !c.AllocationBoundary.IsZero() {
			through = c.AllocationBoundary.UTC().Truncate(time.Hour)
		}
		if (sched == nil || sched.MinPeriodsReached(scheduled)) && billing.ChargesSettled(in.DeactivatedAt.Time, through) {
			out.Finalizer = conditions.FinalizerRemove
		}
	}
	return written
}

// schedule builds the fee grid of a Subscription from its Offering's fee
// and its own activation and deactivation times.
func schedule(fee *finopsv1.SubscriptionFee, in *finopsv1.SubscriptionStatus) (billing.Schedule, error) {
	f := billing.Fee{PriceMicros: fee.PriceMicros, Period: fee.Period, Alignment: billing.Alignment(fee.TickAlignment)}
	if fee.MinPeriods != nil {
		f.MinPeriods = *fee.MinPeriods
	}
	sc, err := billing.NewSchedule(f, in.ActivatedAt.Time)
	if err != nil || in.DeactivatedAt == nil {
		return sc, err
	}
	return sc.Deactivated(in.DeactivatedAt.Time)
}

// usageBilled reports whether usage meters price the Subscription: it
// names usage sources and its Offering prices at least one meter.
func usageBilled(s *finopsv1.Subscription, off *finopsv1.Offering) bool {
	return len(s.Spec.UsageSources) > 0 && off != nil && len(off.Spec.Pricing.ResourcePricing) > 0
}

// holdsFinalizer reports whether the Subscription's finalizer is there to
// remove. A deleting object always holds some finalizer, so an empty list
// (a snapshot that omits it) counts as holding ours.
func holdsFinalizer(s *finopsv1.Subscription) bool {
	return len(s.Finalizers) == 0 || slices.Contains(s.Finalizers, finopsv1.SubscriptionFinalizer)
}
