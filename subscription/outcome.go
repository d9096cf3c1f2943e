package subscription

import (
	"fmt"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
)

// Messages of the states that need no detail.
const (
	msgActivated   = "all four gates passed"
	msgOrphaned    = "all gates passed; the parent is gone and the Orphan policy keeps billing open"
	msgOpen        = "billing is open"
	msgOpenOrphan  = "billing is open; the parent is gone and the Orphan policy keeps it so"
	msgDeactivated = "deactivated; the cause is on the Active condition"
	msgDeleting    = "the Subscription is being deleted"
	msgWaiting     = "waiting for a SubscriptionChargeCollection run to release the finalizer"
	msgFromDB      = "status.costs resolved from the recorded charge rows"
	msgFromCalc    = "status.costs resolved by the in-memory fee calculator; the charge rows could not be read"
)

// evaluate decides one Subscription: the reconcile (delete branch,
// deactivated, or the gates), then what the collection run adds, then
// the merge with the conditions already on the object.
func (e *evaluator) evaluate(i int32) Outcome {
	s := e.nodes[i].sub
	in := &s.Status
	st := finopsv1.SubscriptionStatus{
		ActivatedAt:       in.ActivatedAt,
		DeactivatedAt:     in.DeactivatedAt,
		CompatibilityRoot: in.CompatibilityRoot,
		Costs:             in.Costs,
	}
	gen := max(s.Generation, 0) // a negative generation is bad input; conditions cannot carry it
	// Conditions left from an earlier Subscription of the same name are
	// read as absent by every rule below.
	held := Vocabulary.Held(in.Conditions, s.CreationTimestamp.Time)
	cond := func(typ string, status metav1.ConditionStatus, reason, message string) metav1.Condition {
		return metav1.Condition{Type: typ, Status: status, Reason: reason, Message: message, ObservedGeneration: gen}
	}
	var buf [4]metav1.Condition
	desired := buf[:0]
	transient := false
	stamp := func() *metav1.Time { t := metav1.NewTime(e.now); return &t }

	switch {
	case s.IsDeleting():
		if st.DeactivatedAt == nil {
			st.DeactivatedAt = stamp()
		}
		desired = append(desired,
			cond(TypeReady, cFalse, ReasonValidationSucceeded, msgDeactivated),
			cond(TypeActive, cFalse, ReasonMarkedForDeletion, msgDeleting),
			cond(TypeDeleting, cFalse, ReasonWaitingForCollectionJob, msgWaiting))

	case s.IsDeactivated():
		// Never re-validated: the pair stays as it was, status, reason
		// and message, re-stated for the current generation only.
		ready := cond(TypeReady, cFalse, ReasonValidationSucceeded, msgDeactivated)
		if r := conditions.Find(held, TypeReady); r != nil && r.Status == cFalse && r.Reason == ReasonValidationSucceeded {
			ready.Message = heldMessage(r.Message)
		}
		desired = append(desired, ready)
		if a := conditions.Find(held, TypeActive); a != nil && a.Status == cFalse && Vocabulary.IsTerminal(*a) {
			desired = append(desired, cond(TypeActive, a.Status, a.Reason, heldMessage(a.Message)))
		}

	default:
		v := e.gates(i)
		if v.stamp != "" && st.CompatibilityRoot == "" {
			st.CompatibilityRoot = v.stamp
		}
		prior := conditions.Find(held, TypeActive)
		wasOrphan := prior != nil && prior.Status == cTrue && prior.Reason == ReasonOrphaned
		switch {
		case v.end != "":
			st.DeactivatedAt = stamp()
			desired = append(desired,
				cond(TypeReady, cFalse, ReasonValidationSucceeded, msgDeactivated),
				cond(TypeActive, cFalse, v.end, v.message))
		case v.reason != "":
			transient = v.reason == ReasonValidationError
			desired = append(desired, cond(TypeReady, cFalse, v.reason, v.message))
			if s.IsActive() {
				if v.orphaned || wasOrphan {
					desired = append(desired, cond(TypeActive, cTrue, ReasonOrphaned, msgOpenOrphan))
				} else {
					desired = append(desired, cond(TypeActive, cTrue, ReasonActivationSucceeded, msgOpen))
				}
			}
		default:
			if st.ActivatedAt == nil {
				st.ActivatedAt = stamp()
			}
			reason, m, open := ReasonActivationSucceeded, msgActivated, msgOpen
			if v.orphaned || wasOrphan {
				reason, m, open = ReasonOrphaned, msgOrphaned, msgOpenOrphan
			}
			desired = append(desired, cond(TypeReady, cTrue, reason, m), cond(TypeActive, cTrue, reason, open))
		}
	}

	out := Outcome{Outcome: conditions.Outcome{Kind: finopsv1.KindSubscription, Namespace: s.Namespace, Name: s.Name, UID: s.UID, Generation: gen,
		Retry: transient}}
	if transient {
		out.RetryAt = e.now.Add(conditions.RetryDelay)
	}
	costs := e.collect(i, &out, &st)
	if costs != nil {
		desired = append(desired, *costs)
	} else if c := conditions.Find(held, TypeCostsResolved); c != nil {
		if _, ok := Vocabulary.Lookup(c.Type, c.Status, c.Reason); ok && c.ObservedGeneration >= 0 && conditions.MessageProblem(c.Message) == "" {
			desired = append(desired, *c) // the collector's, kept until it writes again
		}
	}

	m := Vocabulary.MergeObject(atGeneration{s, gen}, in.Conditions, desired, e.now)
	if m.Stale {
		out.Status = *in
		out.Decide(m, false)
		out.Conditions, out.Owned = in.Conditions, Vocabulary.Owned(in.Conditions)
		return out
	}
	st.Conditions = m.Conditions
	st.Ready = cFalse
	if r := conditions.Find(st.Conditions, TypeReady); r != nil && r.Status == cTrue {
		st.Ready = cTrue
	}
	out.Status = st
	out.Conditions, out.Owned = st.Conditions, Vocabulary.Owned(st.Conditions)
	out.Decide(m, st.Ready != in.Ready ||
		!timeEqual(st.ActivatedAt, in.ActivatedAt) || !timeEqual(st.DeactivatedAt, in.DeactivatedAt) ||
		st.CompatibilityRoot != in.CompatibilityRoot || !bucketsEqual(st.Costs, in.Costs))
	return out
}

// heldMessage is a message kept from the status as it was written: the
// engine wrote it from the object's own text, so it is shown as it is,
// only fitted when a hand edit broke the one-line rule.
func heldMessage(m string) string {
	if conditions.MessageProblem(m) == "" {
		return m
	}
	return conditions.FitMessage(m)
}

func timeEqual(a, b *metav1.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(b)
}

func bucketsEqual(a, b []finopsv1.CostBucket) bool {
	return slices.EqualFunc(a, b, func(x, y finopsv1.CostBucket) bool {
		return x.Granularity == y.Granularity && x.Start.Equal(&y.Start) && x.EndExclusive.Equal(&y.EndExclusive) &&
			x.Current == y.Current && x.Projected == y.Projected && slices.Equal(x.Breakdown, y.Breakdown)
	})
}

// msg formats a condition message through conditions.FitMessage; the
// caller passes a part from another object through redact.Message first.
func msg(format string, args ...any) string {
	return conditions.FitMessage(fmt.Sprintf(format, args...))
}

// atGeneration is a Subscription as MergeObject sees it, with its
// generation clamped as the conditions carry it.
type atGeneration struct {
	*finopsv1.Subscription
	gen int64
}

func (a atGeneration) GetGeneration() int64 { return a.gen }
