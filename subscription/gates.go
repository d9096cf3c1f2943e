package subscription

import (
	"strconv"

	"k8s.io/apimachinery/pkg/types"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/billing"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/manifest"
	"github.com/condengine/condengine/redact"
)

// Reasons the gates write, each with the condition it goes with.
const (
	// ReasonCircularDependencyDetected goes with Ready, False:
	// spec.parent names the Subscription itself.
	ReasonCircularDependencyDetected Reason = "CircularDependencyDetected"
	// ReasonTargetIsSelfReference goes with Ready, False:
	// spec.lifecycle.targetRef names the Subscription itself.
	ReasonTargetIsSelfReference Reason = "TargetIsSelfReference"
	// ReasonOfferingNotFound goes with Ready, False: the Offering gate.
	ReasonOfferingNotFound Reason = "OfferingNotFound"
	// ReasonOfferingNotReady goes with Ready, False: the Offering gate.
	ReasonOfferingNotReady Reason = "OfferingNotReady"
	// ReasonParentSubscriptionNotFound goes with Ready, False: the
	// parent gate.
	ReasonParentSubscriptionNotFound Reason = "ParentSubscriptionNotFound"
	// ReasonParentSubscriptionNotReady goes with Ready, False: the parent
	// gate.
	ReasonParentSubscriptionNotReady Reason = "ParentSubscriptionNotReady"
	// ReasonParentSubscriptionDeactivated goes with Ready, False: the
	// parent gate.
	ReasonParentSubscriptionDeactivated Reason = "ParentSubscriptionDeactivated"
	// ReasonCompatibilityRequirementNotMet goes with Ready, False (the
	// compatibility gate holds a new Subscription) and with Active, False
	// (an active one lost a requirement's last provider).
	ReasonCompatibilityRequirementNotMet Reason = "CompatibilityRequirementNotMet"
	// ReasonTargetNotFound goes with Ready, False (the target gate holds a
	// new Subscription) and with Active, False (an active one's target was
	// deleted).
	ReasonTargetNotFound Reason = "TargetNotFound"
	// ReasonValidationError goes with Ready, False: a read failed; the
	// evaluation asks for a retry.
	ReasonValidationError Reason = conditions.ReasonValidationError
	// ReasonActivationSucceeded goes with Ready and Active, True: every
	// gate passes and billing is open.
	ReasonActivationSucceeded Reason = "ActivationSucceeded"
	// ReasonOrphaned goes with Ready and Active, True: billing stays open
	// after the parent went, under the Orphan policy.
	ReasonOrphaned Reason = "Orphaned"
	// ReasonParentDeactivated goes with Active, False: the parent ended
	// or went under the Deactivate policy.
	ReasonParentDeactivated Reason = "ParentDeactivated"
)

// The gates' rules: Ready's, in the order the gates run, then Active's
// while the Subscription is not deleted or deactivated.
const (
	ruleParentIsSelf = iota
	ruleTargetIsSelf
	ruleOfferingGate
	ruleParentGate
	ruleCompatibilityGate
	ruleTargetGate
	ruleReadFailed
	ruleGatesPassed
	ruleActiveOpen
	ruleParentLost
	ruleRequirementLost
	ruleTargetDeleted
)

var gateRules = [...]conditions.Rule{
	ruleParentIsSelf: rule(TypeReady, "subscription/ready/parent-is-self", "spec.parent.subscriptionRef names the Subscription itself",
		write(cFalse, ReasonCircularDependencyDetected, "", "spec.parent.subscriptionRef names the Subscription itself.",
			"Replace the Subscription; the parent reference is immutable.")),
	ruleTargetIsSelf: rule(TypeReady, "subscription/ready/target-is-self", "spec.lifecycle.targetRef names the Subscription itself",
		write(cFalse, ReasonTargetIsSelfReference, "", "spec.lifecycle.targetRef names this Subscription.",
			"Point targetRef at another object, or remove it.")),
	ruleOfferingGate: rule(TypeReady, "subscription/ready/offering-gate", "gate 1: spec.offeringRef names no Offering, or one whose status.ready is not True, or one whose subscription fee period is zero (read from its spec, whatever its status says)",
		write(cFalse, ReasonOfferingNotFound, "", "Offering gate: spec.offeringRef names no Offering.",
			"Create the Offering, or replace the Subscription with a correct reference (namespace included)."),
		write(cFalse, ReasonOfferingNotReady, "", "Offering gate: the Offering exists but its status.ready is not True, or its subscription fee period is zero.",
			"Fix the Offering's own conditions; the Subscription follows by itself.")),
	ruleParentGate: rule(TypeReady, "subscription/ready/parent-gate", "gate 2: the parent is missing, not ready, ended before this child began, or its chain of parents is broken",
		write(cFalse, ReasonParentSubscriptionNotFound, "", "Parent gate: spec.parent.subscriptionRef names no Subscription.",
			"Create the parent; the reference itself cannot be changed."),
		write(cFalse, ReasonParentSubscriptionNotReady, "", "Parent gate: the parent exists but is not ready (or the parent chain loops).",
			"Wait for the parent to activate, or break the parent loop."),
		write(cFalse, ReasonParentSubscriptionDeactivated, "", "Parent gate: the parent has ended; a never-activated child cannot join it.",
			"Create a new family; deactivation is one-way.")),
	ruleCompatibilityGate: rule(TypeReady, "subscription/ready/compatibility-gate", "gate 3: a required Offering is not covered by an active Subscription of the family, for a Subscription not yet active",
		write(cFalse, ReasonCompatibilityRequirementNotMet, "", "Compatibility gate: a required Offering is not held by an active relative outside this Subscription's subtree.",
			"Subscribe a relative to the required Offering.")),
	ruleTargetGate: rule(TypeReady, "subscription/ready/target-gate", "gate 4: the object spec.lifecycle.targetRef names is not in the snapshot, for a Subscription not yet active",
		write(cFalse, ReasonTargetNotFound, "", "Target gate: the object named by spec.lifecycle.targetRef does not exist.",
			"Create the target, or remove the targetRef.")),
	ruleReadFailed: rule(TypeReady, "subscription/ready/read-failed", "a read failed for a reason other than not found, or the family root cannot be stamped",
		write(cFalse, ReasonValidationError, "", "A read failed for a reason other than not found; the message names the gate.",
			"Usually nothing: the evaluation is retried with a growing delay.")),
	ruleGatesPassed: rule(TypeReady, "subscription/ready/gates-passed", "every gate passes; Orphaned when the parent is gone under the Orphan policy",
		write(cTrue, ReasonActivationSucceeded, "all four gates passed", "All four gates pass.", ""),
		write(cTrue, ReasonOrphaned, "all gates passed; the parent is gone and the Orphan policy keeps billing open",
			"All gates pass and the Subscription outlived its parent under the Orphan policy.", "")),

	ruleActiveOpen: rule(TypeActive, "subscription/active/open", "billing stays open: every gate passes, or a gate holds an already active Subscription",
		write(cTrue, ReasonActivationSucceeded, "billing is open", "Billing is open.", ""),
		write(cTrue, ReasonOrphaned, "billing is open; the parent is gone and the Orphan policy keeps it so",
			"Billing is open and the parent is gone; requirements must still be covered.", "")),
	ruleParentLost: rule(TypeActive, "subscription/active/parent-deactivated", "an active Subscription's parent ended or vanished and the effective policy (its lifecycle, else its Offering's, else Deactivate) is Deactivate",
		end(ReasonParentDeactivated, "", "The parent ended or vanished under the Deactivate policy.", "Nothing; the cascade is intended.")).WithExample(`
		objects:
		  - apiVersion: finops.stakater.com/v1alpha1
		    kind: Subscription
		    metadata: {namespace: team-a, name: child, uid: u-child, generation: 1, creationTimestamp: "2026-11-01T00:00:00Z"}
		    spec:
		      offeringRef: {name: base, namespace: shop}
		      parent: {subscriptionRef: {name: root, namespace: team-a}}
		    status:
		      ready: "True"
		      activatedAt: "2026-11-01T09:00:00Z"
		      compatibilityRoot: u-root
		  - apiVersion: finops.stakater.com/v1alpha1
		    kind: Subscription
		    metadata: {namespace: team-a, name: root, uid: u-root, generation: 1, creationTimestamp: "2026-11-01T00:00:00Z"}
		    spec:
		      offeringRef: {name: base, namespace: shop}
		    status:
		      ready: "False"
		      activatedAt: "2026-11-01T09:00:00Z"
		      deactivatedAt: "2026-11-20T12:00:00Z"
		      compatibilityRoot: u-root
		  - apiVersion: finops.stakater.com/v1alpha1
		    kind: Offering
		    metadata: {namespace: shop, name: base, uid: o-base, generation: 1}
		    spec: {pricing: {}}
		    status: {ready: "True"}
		`),
	ruleRequirementLost: rule(TypeActive, "subscription/active/requirement-lost", "an active Subscription's required Offering lost its last active provider in the family",
		end(ReasonCompatibilityRequirementNotMet, "", "A requirement lost its last active provider in the family.",
			"Create a new Subscription; restoring the provider does not revive this one.")).WithExample(`
		objects:
		  - apiVersion: finops.stakater.com/v1alpha1
		    kind: Subscription
		    metadata: {namespace: team-a, name: app, uid: u-app, generation: 1, creationTimestamp: "2026-11-01T00:00:00Z"}
		    spec:
		      offeringRef: {name: app, namespace: shop}
		      parent: {subscriptionRef: {name: root, namespace: team-a}}
		    status:
		      ready: "True"
		      activatedAt: "2026-11-01T09:00:00Z"
		      compatibilityRoot: u-root
		  - apiVersion: finops.stakater.com/v1alpha1
		    kind: Subscription
		    metadata: {namespace: team-a, name: root, uid: u-root, generation: 1, creationTimestamp: "2026-11-01T00:00:00Z"}
		    spec:
		      offeringRef: {name: base, namespace: shop}
		    status:
		      ready: "True"
		      activatedAt: "2026-11-01T09:00:00Z"
		      compatibilityRoot: u-root
		  - apiVersion: finops.stakater.com/v1alpha1
		    kind: Subscription
		    metadata: {namespace: team-a, name: db, uid: u-db, generation: 1, creationTimestamp: "2026-11-01T00:00:00Z"}
		    spec:
		      offeringRef: {name: db, namespace: shop}
		      parent: {subscriptionRef: {name: root, namespace: team-a}}
		    status:
		      ready: "False"
		      activatedAt: "2026-11-01T09:00:00Z"
		      deactivatedAt: "2026-11-20T12:00:00Z"
		      compatibilityRoot: u-root
		  - apiVersion: finops.stakater.com/v1alpha1
		    kind: Offering
		    metadata: {namespace: shop, name: base, uid: o-base, generation: 1}
		    spec: {pricing: {}}
		    status: {ready: "True"}
		  - apiVersion: finops.stakater.com/v1alpha1
		    kind: Offering
		    metadata: {namespace: shop, name: db, uid: o-db, generation: 1}
		    spec: {pricing: {}}
		    status: {ready: "True"}
		  - apiVersion: finops.stakater.com/v1alpha1
		    kind: Offering
		    metadata: {namespace: shop, name: app, uid: o-app, generation: 1}
		    spec:
		      pricing: {}
		      compatibility: {requiredOfferings: [{name: db, namespace: shop}]}
		    status: {ready: "True"}
		`),
	ruleTargetDeleted: rule(TypeActive, "subscription/active/target-deleted", "an active Subscription's target object is no longer in the snapshot",
		end(ReasonTargetNotFound, "", "The object named by spec.lifecycle.targetRef was deleted.", "Create a new Subscription if billing should resume.")),
}

// gateReads are what the evaluation reads about one Subscription besides
// the family indexes, each looked up once: the Offering (which the
// collection run reads too) and the target. The gates decide from them
// and Explain's evidence quotes them.
type gateReads struct {
	off                       *finopsv1.Offering
	offFailed                 bool
	target                    *finopsv1.TargetRef
	targetObj                 ObjectRef
	targetFailed, targetFound bool
}

// readTarget looks up the object spec.lifecycle.targetRef names.
func (e *evaluator) readTarget(s *finopsv1.Subscription, r *gateReads) {
	if t := targetOf(s); t != nil {
		r.target = t
		r.targetObj = ObjectRef{APIVersion: t.APIVersion, Kind: t.Kind, Namespace: t.Namespace, Name: t.Name}
		r.targetFailed = e.fails(t.APIVersion, t.Kind, t.Namespace, t.Name)
		r.targetFound = e.exists(r.targetObj)
	}
}

// gateVerdict is what the gates decided for a Subscription that is
// neither deleting nor deactivated.
type gateVerdict struct {
	// v is Ready's verdict (a gate holding it, or every gate passed), or
	// Active's when an active Subscription ends now (ends is set).
	v    conditions.Verdict
	ends bool
	// orphaned is set when billing goes on without the parent under the
	// Orphan policy, decided now or already so.
	orphaned bool
	// stamp is the compatibilityRoot to write when none is stamped yet.
	stamp string
}

// hold is g, the gates passed so far, with Ready held by the k-th write
// of rule.
func (g gateVerdict) hold(rule, k int, gen int64, format string, args ...any) gateVerdict {
	g.v = gateRules[rule].Verdict(k, msg(format, args...), gen)
	return g
}

// end is g with an active Subscription ending now by rule.
func (g gateVerdict) end(rule int, gen int64, message string) gateVerdict {
	g.v, g.ends = gateRules[rule].Verdict(0, message, gen), true
	return g
}

// open is Active's verdict while billing stays open.
func (g gateVerdict) open(gen int64) conditions.Verdict {
	return gateRules[ruleActiveOpen].Verdict(orphanWrite(g.orphaned), "", gen)
}

// orphanWrite is the index of the Orphaned write in the rules that write
// ActivationSucceeded or Orphaned.
func orphanWrite(orphaned bool) int {
	if orphaned {
		return 1
	}
	return 0
}

// gates runs the checks in their fixed order; the first failure wins.
// wasOrphan says the Subscription's Active is already Orphaned.
//
//  0. the two self-references, which need no read and never clear by
//     waiting (the seed files both under the Offering gate);
//  1. Offering; 2. Parent; then the root stamp; 3. Compatibility; 4. Target.
func (e *evaluator) gates(i int32, r *gateReads, gen int64, wasOrphan bool) gateVerdict {
	n := &e.nodes[i]
	s := n.sub
	active := s.IsActive()
	self := s.Key()
	v := gateVerdict{orphaned: wasOrphan}

	if p := s.Spec.Parent; p != nil && p.SubscriptionRef == self {
		return v.hold(ruleParentIsSelf, 0, gen, "spec.parent.subscriptionRef names this Subscription (%s)", self)
	}
	if t := r.target; t != nil && t.APIVersion == finopsv1.APIVersion && t.Kind == finopsv1.KindSubscription &&
		t.Namespace == s.Namespace && t.Name == s.Name {
		return v.hold(ruleTargetIsSelf, 0, gen, "spec.lifecycle.targetRef names this Subscription (%s)", self)
	}

	// 1. Offering.
	ref := s.Spec.OfferingRef
	off := r.off
	switch {
	case ref.Namespace == "" || ref.Name == "":
		return v.hold(ruleOfferingGate, 0, gen,
			"offering gate: spec.offeringRef needs both name and namespace (namespace is never defaulted)")
	case r.offFailed:
		return v.hold(ruleReadFailed, 0, gen, "offering gate: reading Offering %s failed; retrying", ref)
	case off == nil:
		return v.hold(ruleOfferingGate, 0, gen, "offering gate: Offering %s not found", ref)
	case !off.IsReady():
		return v.hold(ruleOfferingGate, 1, gen, "offering gate: Offering %s is not ready", ref)
	case zeroFee(off):
		// The Offering's status may still read ready (it was before, or
		// its reconcile has not run yet); its spec says it never can be,
		// and that outranks the status the snapshot holds. An active
		// Subscription keeps billing, as under any Offering not ready.
		return v.hold(ruleOfferingGate, 1, gen, "offering gate: Offering %s is not ready: its subscription fee period is zero", ref)
	}

	// 2. Parent.
	if p := s.Spec.Parent; p != nil {
		pref := p.SubscriptionRef
		const notFound, deactivated = 0, 2 // the parent gate's writes
		lost := -1
		switch {
		case pref.Namespace == "" || pref.Name == "":
			return v.hold(ruleParentGate, notFound, gen,
				"parent gate: spec.parent.subscriptionRef needs both name and namespace (namespace is never defaulted)")
		case n.parentFailed:
			return v.hold(ruleReadFailed, 0, gen, "parent gate: reading parent Subscription %s failed; retrying", pref)
		case n.parent < 0:
			lost = notFound
		case e.nodes[n.parent].sub.IsDeactivated():
			lost = deactivated
		}
		switch {
		case lost == notFound && !active:
			return v.hold(ruleParentGate, notFound, gen, "parent gate: parent Subscription %s not found", pref)
		case lost == deactivated && !active:
			return v.hold(ruleParentGate, deactivated, gen, "parent gate: parent Subscription %s has been deactivated", pref)
		case lost >= 0 && effectivePolicy(s, off) == finopsv1.PolicyDeactivate:
			return v.end(ruleParentLost, gen,
				msg("parent Subscription %s ended or disappeared and the effective policy is Deactivate", pref))
		case lost >= 0:
			v.orphaned = true
		case !isReady(e.nodes[n.parent].sub):
			return v.hold(ruleParentGate, 1, gen, "parent gate: parent Subscription %s is not ready", pref)
		case s.Status.CompatibilityRoot == "" && n.rootState == rootLoop:
			return v.hold(ruleParentGate, 1, gen, "parent gate: the chain of parents above %s loops back on itself", self)
		case s.Status.CompatibilityRoot == "" && n.rootState == rootFailed:
			return v.hold(ruleReadFailed, 0, gen, "parent gate: reading an ancestor of %s failed; retrying", self)
		case s.Status.CompatibilityRoot == "" && n.rootState != rootKnown:
			return v.hold(ruleParentGate, 1, gen,
				"parent gate: an ancestor of %s is missing, so the family root cannot be found", self)
		case s.Status.CompatibilityRoot == "" && e.parentUnstamped(n):
			return v.hold(ruleParentGate, 1, gen,
				"parent gate: parent Subscription %s has no status.compatibilityRoot yet, so the family root is not known", pref)
		}
	}

	// Root stamp, between the parent and compatibility gates.
	root := s.Status.CompatibilityRoot
	if root == "" {
		switch {
		case n.rootState != rootKnown:
			// Only an orphan whose parent is already gone gets here.
			return v.hold(ruleReadFailed, 0, gen,
				"compatibility gate: status.compatibilityRoot is unset and the parent is gone, so the family cannot be found; retrying")
		case e.parentUnstamped(n):
			// Only an orphan of a deactivated, never-stamped parent.
			return v.hold(ruleReadFailed, 0, gen,
				"compatibility gate: status.compatibilityRoot is unset and so is the parent's, so the family cannot be found; retrying")
		case n.root == "":
			return v.hold(ruleReadFailed, 0, gen, "compatibility gate: the family root has no metadata.uid; retrying")
		case e.uidShared(types.UID(n.root)):
			return v.hold(ruleReadFailed, 0, gen,
				"compatibility gate: the family root's metadata.uid %s is shared by several Subscriptions; retrying", n.root)
		}
		root = n.root
		v.stamp = root
	}

	// 3. Compatibility.
	if c := off.Spec.Compatibility; c != nil {
		for _, req := range c.RequiredOfferings {
			if req.Namespace != "" && req.Name != "" && e.covered(i, root, req) {
				continue
			}
			// The requirement is the bound Offering's text, not the
			// Subscription's, but it names the Offering the reader must
			// subscribe a relative to: a name the reader may see, shown as
			// written; an entry not shaped like a name is free text and
			// redacted. Nothing else of the Offering, and no Subscription
			// of the family, is quoted.
			const format = "required offering %s not covered by an active subscription in the family"
			name := redact.Name(req.Namespace + "/" + req.Name)
			if active {
				return v.end(ruleRequirementLost, gen, msg(format, name))
			}
			return v.hold(ruleCompatibilityGate, 0, gen, format, name)
		}
	}

	// 4. Target.
	if t := r.target; t != nil {
		switch {
		case t.APIVersion == "" || t.Kind == "" || t.Name == "":
			return v.hold(ruleReadFailed, 0, gen, "target gate: spec.lifecycle.targetRef needs apiVersion, kind and name")
		case r.targetFailed:
			return v.hold(ruleReadFailed, 0, gen, "target gate: reading target %s failed; retrying", r.targetObj.describe())
		case !r.targetFound && active:
			return v.end(ruleTargetDeleted, gen, msg("target %s was deleted", r.targetObj.describe()))
		case !r.targetFound:
			return v.hold(ruleTargetGate, 0, gen, "target gate: target %s not found", r.targetObj.describe())
		}
	}
	v.v = gateRules[ruleGatesPassed].Verdict(orphanWrite(v.orphaned), "", gen)
	return v
}

// recordGates records, as the evidence of typ, what the gates read about
// node i: the Offering; then, when all is set (every verdict but a
// self-reference's and the Offering gate's), the parent and its policy,
// the family root, the requirements and the target. The objects are
// recorded in the order evidence lists them: the Subscription itself,
// the failed reads, the Offering, the parent.
func (e *evaluator) recordGates(rec *conditions.Recorder, typ string, i int32, r *gateReads, all bool) {
	n := &e.nodes[i]
	s := n.sub
	var own, failed, offering, parent []conditions.Fact
	ref := s.Spec.OfferingRef
	switch {
	case r.offFailed:
		failed = append(failed, conditions.F("failure", finopsv1.KindOffering+" "+ref.String()))
	case r.off == nil:
		own = append(own, conditions.F("spec.offeringRef", ref.String()+" (not found)"))
	default:
		offering = append(offering, conditions.F("status.ready", string(r.off.Status.Ready)))
	}
	var ps *finopsv1.Subscription
	if par := s.Spec.Parent; all && par != nil {
		pref := par.SubscriptionRef
		switch {
		case n.parentFailed:
			failed = append(failed, conditions.F("failure", finopsv1.KindSubscription+" "+pref.String()))
		case n.parent < 0:
			own = append(own, conditions.F("spec.parent.subscriptionRef", pref.String()+" (not found)"))
		default:
			own = append(own, conditions.F("spec.parent.subscriptionRef", pref.String()))
			ps = e.nodes[n.parent].sub
			parent = append(parent, conditions.F("status.ready", string(ps.Status.Ready)))
			if ps.Status.DeactivatedAt != nil {
				parent = append(parent, conditions.FTime("status.deactivatedAt", ps.Status.DeactivatedAt.Time))
			}
			if ps == s { // its own parent: the facts are its own
				own, parent, ps = append(own, parent...), nil, nil
			}
		}
		from := "default"
		switch off := r.off; {
		case s.Spec.Lifecycle != nil:
			from = "spec.lifecycle.onParentDeactivate of the Subscription"
		case off != nil && off.Spec.Lifecycle != nil && off.Spec.Lifecycle.OnParentDeactivate != "":
			from = "spec.lifecycle.onParentDeactivate of Offering " + off.Namespace + "/" + off.Name
		}
		own = append(own, conditions.F("policy", effectivePolicy(s, r.off)+" ("+from+")"))
	}
	if all {
		if root := s.Status.CompatibilityRoot; root != "" {
			own = append(own, conditions.F("status.compatibilityRoot", root))
		} else if n.root != "" {
			own = append(own, conditions.F("familyRoot", n.root))
		}
		if off := r.off; off != nil && off.Spec.Compatibility != nil {
			for k, req := range off.Spec.Compatibility.RequiredOfferings {
				offering = append(offering, conditions.F("spec.compatibility.requiredOfferings["+strconv.Itoa(k)+"]", req.Namespace+"/"+req.Name))
			}
		}
		if r.target != nil {
			v := r.targetObj.describe()
			switch {
			case r.targetFailed:
				failed = append(failed, conditions.F("failure", v))
			case !r.targetFound:
				v += " (not found)"
			}
			own = append(own, conditions.F("spec.lifecycle.targetRef", v))
		}
	}
	rec.Read(typ, subRef(s), own...)
	if failed != nil {
		rec.Read(typ, conditions.ObjectRef{}, failed...)
	}
	if offering != nil {
		rec.Read(typ, offeringRef(r.off), offering...)
	}
	if ps != nil {
		rec.Read(typ, subRef(ps), parent...)
	}
}

// parentUnstamped reports whether node n's parent is in the snapshot
// without a stamped compatibilityRoot. A new Subscription inherits its
// root from the parent's stamp only, never by walking past an unstamped
// parent, so such a chain is incomplete.
func (e *evaluator) parentUnstamped(n *node) bool {
	return n.parent >= 0 && e.nodes[n.parent].sub.Status.CompatibilityRoot == ""
}

// effectivePolicy is the parent-loss policy in force: the Subscription's
// lifecycle block when it has one (Deactivate unless it says Orphan), else
// the Offering's, else Deactivate.
func effectivePolicy(s *finopsv1.Subscription, off *finopsv1.Offering) string {
	if l := s.Spec.Lifecycle; l != nil {
		if l.OnParentDeactivate == finopsv1.PolicyOrphan {
			return finopsv1.PolicyOrphan
		}
		return finopsv1.PolicyDeactivate
	}
	if off != nil && off.Spec.Lifecycle != nil && off.Spec.Lifecycle.OnParentDeactivate == finopsv1.PolicyOrphan {
		return finopsv1.PolicyOrphan
	}
	return finopsv1.PolicyDeactivate
}

func targetOf(s *finopsv1.Subscription) *finopsv1.TargetRef {
	if s.Spec.Lifecycle == nil {
		return nil
	}
	return s.Spec.Lifecycle.TargetRef
}

func isReady(s *finopsv1.Subscription) bool { return s.Status.Ready == "True" }

// zeroFee reports whether the Offering's subscription fee has a zero
// period: whatever its status says, no Subscription activates on it.
func zeroFee(off *finopsv1.Offering) bool {
	fee := off.Spec.Pricing.SubscriptionFee
	return fee != nil && billing.ZeroPeriod(billing.Alignment(fee.TickAlignment), fee.Period)
}

// describe names an object for a message: kind, namespace/name and API
// version, all as the Subscription's own spec wrote them.
func (r ObjectRef) describe() string {
	return r.Kind + " " + manifest.JoinName(r.Namespace, r.Name) + " (" + r.APIVersion + ")"
}

func subRef(s *finopsv1.Subscription) conditions.ObjectRef {
	return conditions.ObjectRef{Kind: finopsv1.KindSubscription, Namespace: s.Namespace, Name: s.Name, UID: s.UID, Generation: s.Generation}
}

func offeringRef(o *finopsv1.Offering) conditions.ObjectRef {
	return conditions.ObjectRef{Kind: finopsv1.KindOffering, Namespace: o.Namespace, Name: o.Name, UID: o.UID, Generation: o.Generation}
}
