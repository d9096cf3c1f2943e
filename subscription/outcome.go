package subscription

import (
	"fmt"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/redact"
)

// Reasons of a Subscription that is deleted or has ended, each with the
// condition it goes with.
const (
	// ReasonValidationSucceeded goes with Ready, False: the Subscription
	// was deactivated; the cause is on Active.
	ReasonValidationSucceeded Reason = conditions.ReasonValidationSucceeded
	// ReasonMarkedForDeletion goes with Active, False: the Subscription is
	// being deleted.
	ReasonMarkedForDeletion Reason = "MarkedForDeletion"
	// ReasonWaitingForCollectionJob goes with Deleting, False: no charge
	// collection run has released the finalizer yet.
	ReasonWaitingForCollectionJob Reason = "WaitingForCollectionJob"
)

// The rules of a Subscription that is deleted, deactivated or ends now.
const (
	ruleReadyDeactivated = iota
	ruleMarkedForDeletion
	ruleEndKept
	ruleWaitingCollection
)

var lifecycleRules = [...]conditions.Rule{
	ruleReadyDeactivated: rule(TypeReady, "subscription/ready/deactivated", "the Subscription is deleted, deactivated, or deactivates now: Ready follows Active",
		end(ReasonValidationSucceeded, "deactivated; the cause is on the Active condition",
			"The Subscription was deactivated; the cause is on the Active condition.", "Read the Active condition and status.deactivatedAt.")),
	ruleMarkedForDeletion: rule(TypeActive, "subscription/active/marked-for-deletion", "metadata.deletionTimestamp is set",
		writeMarkedForDeletion),
	ruleEndKept: rule(TypeActive, "subscription/active/end-kept", "a deactivated Subscription is never re-validated: its terminal Active is restated for the current generation, its message redacted again",
		activeEnds()...),
	ruleWaitingCollection: rule(TypeDeleting, "subscription/deleting/waiting-for-collection", "a deleted Subscription keeps its finalizer until a charge collection run releases it",
		end(ReasonWaitingForCollectionJob, "waiting for a SubscriptionChargeCollection run to release the finalizer",
			"No charge collection run has released the finalizer yet.", "Check that a SubscriptionChargeCollection CostJob exists and succeeds.")),
}

// activeEnds are the terminal Active=False writes of the gates' rules and
// of the delete branch: what a deactivated Subscription's Active may keep.
func activeEnds() []conditions.Reason {
	var out []conditions.Reason
	for _, r := range gateRules {
		for _, w := range r.Writes {
			if r.Types[0] == TypeActive && w.Terminal {
				out = append(out, w)
			}
		}
	}
	return append(out, writeMarkedForDeletion)
}

var writeMarkedForDeletion = end(ReasonMarkedForDeletion, "the Subscription is being deleted",
	"The Subscription is being deleted.", "Nothing; a charge collection run releases the finalizer.")

// evaluate decides one Subscription: the reconcile (delete branch,
// deactivated, or the gates), then what the collection run adds, then
// the merge with the conditions already on the object. With rec it
// records the rule behind each condition and what it read.
func (e *evaluator) evaluate(i int32, rec *conditions.Recorder) Outcome {
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
	// Active and Deleting are written only when their verdict has a rule.
	var ready, active, deleting conditions.Verdict
	var r gateReads
	r.off, r.offFailed = e.offering(s.Spec.OfferingRef)
	readyFrom := ""
	transient := false
	stamp := func() *metav1.Time { t := metav1.NewTime(e.now); return &t }

	switch {
	case s.IsDeleting():
		if st.DeactivatedAt == nil {
			st.DeactivatedAt = stamp()
		}
		ready, readyFrom = lifecycleRules[ruleReadyDeactivated].Verdict(0, "", gen), TypeActive
		active = lifecycleRules[ruleMarkedForDeletion].Verdict(0, "", gen)
		deleting = lifecycleRules[ruleWaitingCollection].Verdict(0, "", gen)
		if rec.On() {
			self := subRef(s)
			rec.Read(TypeReady, self, conditions.FTime("metadata.deletionTimestamp", s.DeletionTimestamp.Time))
			rec.Read(TypeActive, self, conditions.FTime("metadata.deletionTimestamp", s.DeletionTimestamp.Time))
			rec.Read(TypeDeleting, self)
		}

	case s.IsDeactivated():
		// Never re-validated: the pair stays as it was, status, reason
		// and message, re-stated for the current generation only.
		// The messages are redacted again (see heldMessage).
		ready, readyFrom = lifecycleRules[ruleReadyDeactivated].Verdict(0, "", gen), TypeActive
		if r := conditions.Find(held, TypeReady); r != nil && r.Status == cFalse && r.Reason == string(ReasonValidationSucceeded) {
			ready.Message = e.heldMessage(s, r.Message)
		}
		kept := &lifecycleRules[ruleEndKept]
		if a := conditions.Find(held, TypeActive); a != nil {
			if k := slices.IndexFunc(kept.Writes, func(w conditions.Reason) bool { return w.Status == a.Status && w.Reason == a.Reason }); k >= 0 {
				active = kept.Verdict(k, "", gen)
				active.Message = e.heldMessage(s, a.Message)
			}
		}
		if rec.On() {
			self := subRef(s)
			rec.Read(TypeReady, self, conditions.FTime("status.deactivatedAt", s.Status.DeactivatedAt.Time))
			rec.Read(TypeActive, self, conditions.FTime("status.deactivatedAt", s.Status.DeactivatedAt.Time))
		}

	default:
		e.readTarget(s, &r)
		prior := conditions.Find(held, TypeActive)
		wasOrphan := prior != nil && prior.Status == cTrue && prior.Reason == string(ReasonOrphaned)
		g := e.gates(i, &r, gen, wasOrphan)
		if g.stamp != "" && st.CompatibilityRoot == "" {
			st.CompatibilityRoot = g.stamp
		}
		switch {
		case g.ends:
			st.DeactivatedAt = stamp()
			ready, readyFrom = lifecycleRules[ruleReadyDeactivated].Verdict(0, "", gen), TypeActive
			active = g.v
		case g.v.Rule != &gateRules[ruleGatesPassed]:
			transient = g.v.Rule == &gateRules[ruleReadFailed]
			ready = g.v
			if s.IsActive() {
				active = g.open(gen)
			}
		default:
			if st.ActivatedAt == nil {
				st.ActivatedAt = stamp()
			}
			ready, active = g.v, g.open(gen)
		}
		if rec.On() {
			e.recordGates(rec, TypeReady, i, &r, ready.Rule != &gateRules[ruleParentIsSelf] &&
				ready.Rule != &gateRules[ruleTargetIsSelf] && ready.Rule != &gateRules[ruleOfferingGate])
			if active.Rule != nil {
				e.recordGates(rec, TypeActive, i, &r, true)
			}
		}
	}

	var buf [4]metav1.Condition
	desired := append(buf[:0], ready.Condition(TypeReady))
	rec.Decided(TypeReady, readyFrom, ready)
	for _, d := range [...]struct {
		typ string
		v   conditions.Verdict
	}{{TypeActive, active}, {TypeDeleting, deleting}} {
		if d.v.Rule != nil {
			desired = append(desired, d.v.Condition(d.typ))
			rec.Decided(d.typ, "", d.v)
		}
	}

	out := Outcome{Outcome: conditions.Outcome{Kind: finopsv1.KindSubscription, Namespace: s.Namespace, Name: s.Name, UID: s.UID, Generation: gen,
		Retry: transient}}
	if transient {
		out.RetryAt = e.now.Add(conditions.RetryDelay)
	}
	if c, ok := e.costsResolved(i, &r, &out, &st, held, rec); ok {
		desired = append(desired, c)
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

// heldMessage is a message kept from the status as it was written, as
// it is written again: redacted like any text from elsewhere, since
// anyone who can write the status may have put a secret in it, except for
// the names the Subscription's messages are built with (see seen), which
// stay as written. A message the engine wrote comes back unchanged; a
// hand edit that broke the one-line rule is mended.
func (e *evaluator) heldMessage(s *finopsv1.Subscription, m string) string {
	return e.seen(s).Message(m)
}

// seen is what a Subscription's reader sees by name: the Subscription
// itself, what its spec names (its Offering, its parent, its target) and
// the requirements of its bound Offering. These are the only names its
// messages carry.
func (e *evaluator) seen(s *finopsv1.Subscription) redact.Names {
	return func(n string) bool {
		switch {
		case redact.NamesObject(n, s.Namespace, s.Name), redact.NamesObject(n, s.Spec.OfferingRef.Namespace, s.Spec.OfferingRef.Name):
			return true
		case s.Spec.Parent != nil && redact.NamesObject(n, s.Spec.Parent.SubscriptionRef.Namespace, s.Spec.Parent.SubscriptionRef.Name):
			return true
		}
		if t := targetOf(s); t != nil && redact.NamesObject(n, t.Namespace, t.Name) {
			return true
		}
		if off := e.offerings[s.Spec.OfferingRef]; off != nil && off.Spec.Compatibility != nil {
			for _, r := range off.Spec.Compatibility.RequiredOfferings {
				if redact.NamesObject(n, r.Namespace, r.Name) {
					return true
				}
			}
		}
		return false
	}
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
