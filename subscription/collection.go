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

// Reasons of CostsResolved, each saying where status.costs came from.
const (
	// ReasonFromDB goes with CostsResolved, True: the buckets were summed
	// from the recorded charge rows.
	ReasonFromDB Reason = "FromDB"
	// ReasonFromCalculator goes with CostsResolved, True: the charge rows
	// could not be read and the buckets are the fee projection.
	ReasonFromCalculator Reason = "FromCalculator"
)

// CostsResolved's rules: the run at now wrote it, or the last run's is
// kept.
const (
	ruleCostsCollected = iota
	ruleCostsKept
)

var costsWrites = []conditions.Reason{
	write(cTrue, ReasonFromDB, "status.costs resolved from the recorded charge rows",
		"The buckets were summed from the recorded charge rows.", ""),
	write(cTrue, ReasonFromCalculator, "status.costs resolved by the in-memory fee calculator; the charge rows could not be read",
		"The charge rows could not be read; the buckets are the fee projection.", "Check the collection job's log and its database connection."),
}

var costsRules = [...]conditions.Rule{
	ruleCostsCollected: rule(TypeCostsResolved, "subscription/costs-resolved/collection-run",
		"the charge collection run at now wrote status.costs, from the charge rows or the fee calculator", costsWrites...),
	ruleCostsKept: rule(TypeCostsResolved, "subscription/costs-resolved/kept",
		"no collection run wrote this time, so the collector's last CostsResolved is kept, its message redacted again", costsWrites...),
}

// costsResolved is the CostsResolved condition to write and whether there
// is one: the collection run's (see collect), else the one held, kept
// until the collector writes again when it is still one of ours.
func (e *evaluator) costsResolved(i int32, r *gateReads, out *Outcome, st *finopsv1.SubscriptionStatus, held []metav1.Condition, rec *conditions.Recorder) (metav1.Condition, bool) {
	if v := e.collect(i, r, out, st, rec); v.Rule != nil {
		rec.Decided(TypeCostsResolved, "", v)
		return v.Condition(TypeCostsResolved), true
	}
	c := conditions.Find(held, TypeCostsResolved)
	if c == nil {
		return metav1.Condition{}, false
	}
	if _, ok := Vocabulary.Lookup(c.Type, c.Status, c.Reason); !ok || c.ObservedGeneration < 0 || conditions.MessageProblem(c.Message) != "" {
		return metav1.Condition{}, false
	}
	rec.Read(TypeCostsResolved, subRef(e.nodes[i].sub))
	rec.Decided(TypeCostsResolved, "", conditions.Verdict{Rule: &costsRules[ruleCostsKept]})
	kept := *c
	kept.Message = e.heldMessage(e.nodes[i].sub, kept.Message)
	return kept, true
}

// collect applies the snapshot's charge collection run to one
// Subscription: status.costs, the CostsResolved verdict and the
// finalizer. Like the run itself it reads the Subscription as the snapshot
// holds it, not as this evaluation's reconcile leaves it. The verdict has
// no rule when the run writes no CostsResolved.
func (e *evaluator) collect(i int32, r *gateReads, out *Outcome, st *finopsv1.SubscriptionStatus, rec *conditions.Recorder) conditions.Verdict {
	c := e.collection
	if c == nil {
		return conditions.Verdict{}
	}
	s := e.nodes[i].sub
	in := &s.Status
	res, listed := e.results[s.Key()]
	scheduled := c.ScheduledHour.UTC().Truncate(time.Hour)
	failed := listed && res.Source == SourceError
	if listed && rec.On() {
		// What the run recorded decides CostsResolved, written or kept.
		rec.Read(TypeCostsResolved, subRef(s))
		rec.Read(TypeCostsResolved, conditions.ObjectRef{}, conditions.FTime("collection.scheduledHour", c.ScheduledHour),
			conditions.F("collection.source", string(res.Source)))
	}
	if failed {
		out.Errors = append(out.Errors, "the collection run recorded an error for this Subscription")
	}

	var written conditions.Verdict
	var sched *billing.Schedule
	off := r.off
	if in.ActivatedAt != nil {
		if r.offFailed || off == nil {
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
				k := 0
				if res.Source == SourceCalculator {
					k = 1
				}
				written = costsRules[ruleCostsCollected].Verdict(k, "", s.Generation)
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

// Instants a status can hold: after the zero time, which a write turns
// into null, and before the year 10000, which RFC 3339 cannot spell.
var (
	firstWritable = time.Date(1, time.January, 1, 0, 0, 1, 0, time.UTC)
	endWritable   = time.Date(10000, time.January, 1, 0, 0, 0, 0, time.UTC)
)

// unwritableRun explains why a run scheduled at scheduled would write a
// bucket bound no status can hold, or returns "". The month bucket is the
// widest: a run in December 9999 ends it at 10000-01-01, one in January
// of the year 1 starts it at the zero time.
func unwritableRun(scheduled time.Time) string {
	month := billing.Windows(scheduled)[2]
	if month[0].Before(firstWritable) || !month[1].Before(endWritable) {
		return fmt.Sprintf("the collection run scheduled at %s is ignored: its month bucket, %s to %s, "+
			"does not lie after 0001-01-01T00:00:00Z and before the year 10000, as a status time must",
			scheduled.UTC().Format(time.RFC3339), month[0].Format(time.RFC3339), month[1].Format(time.RFC3339))
	}
	return ""
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
