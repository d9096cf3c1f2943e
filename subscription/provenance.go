package subscription

import (
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
)

// Rule IDs of the Subscription's conditions; Rules lists them.
const (
	ruleParentIsSelf      = "subscription/ready/parent-is-self"
	ruleTargetIsSelf      = "subscription/ready/target-is-self"
	ruleOfferingGate      = "subscription/ready/offering-gate"
	ruleParentGate        = "subscription/ready/parent-gate"
	ruleCompatibilityGate = "subscription/ready/compatibility-gate"
	ruleTargetGate        = "subscription/ready/target-gate"
	ruleReadFailed        = "subscription/ready/read-failed"
	ruleGatesPassed       = "subscription/ready/gates-passed"
	ruleReadyDeactivated  = "subscription/ready/deactivated"
	ruleActiveOpen        = "subscription/active/open"
	ruleParentLost        = "subscription/active/parent-deactivated"
	ruleRequirementLost   = "subscription/active/requirement-lost"
	ruleTargetDeleted     = "subscription/active/target-deleted"
	ruleMarkedForDeletion = "subscription/active/marked-for-deletion"
	ruleEndKept           = "subscription/active/end-kept"
	ruleWaitingCollection = "subscription/deleting/waiting-for-collection"
	ruleCostsCollected    = "subscription/costs-resolved/collection-run"
	ruleCostsKept         = "subscription/costs-resolved/kept"
)

// readyRules maps Ready's reasons to the rule that writes each.
var readyRules = map[string]string{
	ReasonCircularDependencyDetected:     ruleParentIsSelf,
	ReasonTargetIsSelfReference:          ruleTargetIsSelf,
	ReasonOfferingNotFound:               ruleOfferingGate,
	ReasonOfferingNotReady:               ruleOfferingGate,
	ReasonParentSubscriptionNotFound:     ruleParentGate,
	ReasonParentSubscriptionNotReady:     ruleParentGate,
	ReasonParentSubscriptionDeactivated:  ruleParentGate,
	ReasonCompatibilityRequirementNotMet: ruleCompatibilityGate,
	ReasonTargetNotFound:                 ruleTargetGate,
	ReasonValidationError:                ruleReadFailed,
	ReasonActivationSucceeded:            ruleGatesPassed,
	ReasonOrphaned:                       ruleGatesPassed,
	ReasonValidationSucceeded:            ruleReadyDeactivated,
}

// activeRules maps Active's reasons, as this evaluation decides them, to
// their rules; a deactivated Subscription's kept Active is ruleEndKept.
var activeRules = map[string]string{
	ReasonActivationSucceeded:            ruleActiveOpen,
	ReasonOrphaned:                       ruleActiveOpen,
	ReasonParentDeactivated:              ruleParentLost,
	ReasonCompatibilityRequirementNotMet: ruleRequirementLost,
	ReasonTargetNotFound:                 ruleTargetDeleted,
	ReasonMarkedForDeletion:              ruleMarkedForDeletion,
}

// Rules is the table of the rules that decide a Subscription's
// conditions, one sentence each, gates in the order they run. The slice
// is a copy.
func Rules() []conditions.Rule {
	rule := func(id, typ, sentence string, pairs ...conditions.Pair) conditions.Rule {
		return conditions.Rule{ID: id, Kind: finopsv1.KindSubscription, Types: []string{typ}, Sentence: sentence, Reasons: pairs}
	}
	f := func(reason string) conditions.Pair { return conditions.Pair{Status: cFalse, Reason: reason} }
	t := func(reason string) conditions.Pair { return conditions.Pair{Status: cTrue, Reason: reason} }
	return []conditions.Rule{
		rule(ruleParentIsSelf, TypeReady, "spec.parent.subscriptionRef names the Subscription itself", f(ReasonCircularDependencyDetected)),
		rule(ruleTargetIsSelf, TypeReady, "spec.lifecycle.targetRef names the Subscription itself", f(ReasonTargetIsSelfReference)),
		rule(ruleOfferingGate, TypeReady, "gate 1: spec.offeringRef names no Offering, or one whose status.ready is not True", f(ReasonOfferingNotFound), f(ReasonOfferingNotReady)),
		rule(ruleParentGate, TypeReady, "gate 2: the parent is missing, not ready, ended before this child began, or its chain of parents is broken", f(ReasonParentSubscriptionNotFound), f(ReasonParentSubscriptionNotReady), f(ReasonParentSubscriptionDeactivated)),
		rule(ruleCompatibilityGate, TypeReady, "gate 3: a required Offering is not covered by an active Subscription of the family, for a Subscription not yet active", f(ReasonCompatibilityRequirementNotMet)),
		rule(ruleTargetGate, TypeReady, "gate 4: the object spec.lifecycle.targetRef names is not in the snapshot, for a Subscription not yet active", f(ReasonTargetNotFound)),
		rule(ruleReadFailed, TypeReady, "a read failed for a reason other than not found, or the family root cannot be stamped", f(ReasonValidationError)),
		rule(ruleGatesPassed, TypeReady, "every gate passes; Orphaned when the parent is gone under the Orphan policy", t(ReasonActivationSucceeded), t(ReasonOrphaned)),
		rule(ruleReadyDeactivated, TypeReady, "the Subscription is deleted, deactivated, or deactivates now: Ready follows Active", f(ReasonValidationSucceeded)),
		rule(ruleActiveOpen, TypeActive, "billing stays open: every gate passes, or a gate holds an already active Subscription", t(ReasonActivationSucceeded), t(ReasonOrphaned)),
		rule(ruleParentLost, TypeActive, "an active Subscription's parent ended or vanished and the effective policy (its lifecycle, else its Offering's, else Deactivate) is Deactivate", f(ReasonParentDeactivated)),
		rule(ruleRequirementLost, TypeActive, "an active Subscription's required Offering lost its last active provider in the family", f(ReasonCompatibilityRequirementNotMet)),
		rule(ruleTargetDeleted, TypeActive, "an active Subscription's target object is no longer in the snapshot", f(ReasonTargetNotFound)),
		rule(ruleMarkedForDeletion, TypeActive, "metadata.deletionTimestamp is set", f(ReasonMarkedForDeletion)),
		{ID: ruleEndKept, Kind: finopsv1.KindSubscription, Types: []string{TypeActive}, Sentence: "a deactivated Subscription is never re-validated: its terminal Active is restated for the current generation",
			Reasons: Vocabulary.Pairs(TypeActive, func(p conditions.Pair) bool {
				return p.Status == cFalse && Vocabulary.IsTerminal(metav1.Condition{Type: TypeActive, Status: p.Status, Reason: p.Reason})
			})},
		rule(ruleWaitingCollection, TypeDeleting, "a deleted Subscription keeps its finalizer until a charge collection run releases it", f(ReasonWaitingForCollectionJob)),
		{ID: ruleCostsCollected, Kind: finopsv1.KindSubscription, Types: []string{TypeCostsResolved}, Sentence: "the charge collection run at now wrote status.costs, from the charge rows or the fee calculator",
			Reasons: Vocabulary.Pairs(TypeCostsResolved, nil)},
		{ID: ruleCostsKept, Kind: finopsv1.KindSubscription, Types: []string{TypeCostsResolved}, Sentence: "no collection run wrote this time, so the collector's last CostsResolved is kept",
			Reasons: Vocabulary.Pairs(TypeCostsResolved, nil)},
	}
}

// Explain is Evaluate with provenance: each Outcome also carries, in
// Provenance, the rule and the raw evidence behind each of its
// conditions (for logs and tools, never a status). Evaluate leaves
// Provenance nil.
func Explain(snap Snapshot) (Result, error) {
	if err := conditions.CheckNow(snap.Now); err != nil {
		return Result{}, err
	}
	return evaluate(snap, true), nil
}

func subRef(s *finopsv1.Subscription) conditions.ObjectRef {
	return conditions.ObjectRef{Kind: finopsv1.KindSubscription, Namespace: s.Namespace, Name: s.Name, UID: s.UID, Generation: s.Generation}
}

func offeringRef(o *finopsv1.Offering) conditions.ObjectRef {
	return conditions.ObjectRef{Kind: finopsv1.KindOffering, Namespace: o.Namespace, Name: o.Name, UID: o.UID, Generation: o.Generation}
}

// explain records why each condition of the outcome of node i reads as
// it does, from the same indexes the evaluation used.
func (e *evaluator) explain(i int32, out *Outcome) []conditions.Provenance {
	s := e.nodes[i].sub
	self := subRef(s)
	var decided []conditions.Provenance
	for _, c := range out.Status.Conditions {
		p := conditions.Provenance{Type: c.Type}
		p.Add(self)
		switch c.Type {
		case TypeReady:
			p.Rule = readyRules[c.Reason]
			if p.Rule == ruleReadyDeactivated {
				p.From = TypeActive
			}
			e.explainGates(&p, i, c.Reason)
		case TypeActive:
			p.Rule = activeRules[c.Reason]
			if s.IsDeactivated() && !s.IsDeleting() {
				p.Rule = ruleEndKept
			}
			e.explainGates(&p, i, c.Reason)
		case TypeDeleting:
			p.Rule = ruleWaitingCollection
		case TypeCostsResolved:
			p.Rule = ruleCostsKept
			if _, listed := e.results[s.Key()]; e.collection != nil && listed {
				p.Rule = ruleCostsCollected
				p.Add(conditions.ObjectRef{}, conditions.FTime("collection.scheduledHour", e.collection.ScheduledHour),
					conditions.F("collection.source", string(e.results[s.Key()].Source)))
			}
		}
		conditions.SortEvidence(&p)
		decided = append(decided, p)
	}
	return Vocabulary.Attach(out.Status.Conditions, out.Skip == conditions.SkipStale, self, decided)
}

// explainGates adds the facts behind a gate's reason: the Offering, the
// parent and the policy, the requirements, the target, the failed reads.
func (e *evaluator) explainGates(p *conditions.Provenance, i int32, reason string) {
	n := &e.nodes[i]
	s := n.sub
	self := subRef(s)
	if s.IsDeleting() {
		p.Add(self, conditions.FTime("metadata.deletionTimestamp", s.DeletionTimestamp.Time))
		return
	}
	if s.IsDeactivated() {
		// Never re-validated: the gates were not run.
		p.Add(self, conditions.FTime("status.deactivatedAt", s.Status.DeactivatedAt.Time))
		return
	}
	ref := s.Spec.OfferingRef
	off, failed := e.offering(ref)
	switch {
	case failed:
		p.Add(conditions.ObjectRef{}, conditions.F("failure", finopsv1.KindOffering+" "+ref.String()))
	case off == nil:
		p.Add(self, conditions.F("spec.offeringRef", ref.String()+" (not found)"))
	default:
		p.Add(offeringRef(off), conditions.F("status.ready", string(off.Status.Ready)))
	}
	switch reason {
	case ReasonOfferingNotFound, ReasonOfferingNotReady, ReasonCircularDependencyDetected, ReasonTargetIsSelfReference:
		return
	}
	if par := s.Spec.Parent; par != nil {
		pref := par.SubscriptionRef
		switch {
		case n.parentFailed:
			p.Add(conditions.ObjectRef{}, conditions.F("failure", finopsv1.KindSubscription+" "+pref.String()))
		case n.parent < 0:
			p.Add(self, conditions.F("spec.parent.subscriptionRef", pref.String()+" (not found)"))
		default:
			p.Add(self, conditions.F("spec.parent.subscriptionRef", pref.String()))
			ps := e.nodes[n.parent].sub
			facts := []conditions.Fact{conditions.F("status.ready", string(ps.Status.Ready))}
			if ps.Status.DeactivatedAt != nil {
				facts = append(facts, conditions.FTime("status.deactivatedAt", ps.Status.DeactivatedAt.Time))
			}
			p.Add(subRef(ps), facts...)
		}
		policy, from := effectivePolicy(s, off), "default"
		switch {
		case s.Spec.Lifecycle != nil:
			from = "spec.lifecycle.onParentDeactivate of the Subscription"
		case off != nil && off.Spec.Lifecycle != nil && off.Spec.Lifecycle.OnParentDeactivate != "":
			from = "spec.lifecycle.onParentDeactivate of Offering " + off.Namespace + "/" + off.Name
		}
		p.Add(self, conditions.F("policy", policy+" ("+from+")"))
	}
	if root := s.Status.CompatibilityRoot; root != "" {
		p.Add(self, conditions.F("status.compatibilityRoot", root))
	} else if n.root != "" {
		p.Add(self, conditions.F("familyRoot", n.root))
	}
	if off != nil && off.Spec.Compatibility != nil {
		for k, req := range off.Spec.Compatibility.RequiredOfferings {
			p.Add(offeringRef(off), conditions.F("spec.compatibility.requiredOfferings["+strconv.Itoa(k)+"]", req.Namespace+"/"+req.Name))
		}
	}
	if t := targetOf(s); t != nil {
		obj := ObjectRef{APIVersion: t.APIVersion, Kind: t.Kind, Namespace: t.Namespace, Name: t.Name}
		v := obj.describe()
		switch {
		case e.fails(t.APIVersion, t.Kind, t.Namespace, t.Name):
			p.Add(conditions.ObjectRef{}, conditions.F("failure", v))
		case !e.exists(obj):
			v += " (not found)"
		}
		p.Add(self, conditions.F("spec.lifecycle.targetRef", v))
	}
}
