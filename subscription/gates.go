package subscription

import (
	"k8s.io/apimachinery/pkg/types"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/manifest"
	"github.com/condengine/condengine/redact"
)

// verdict is what the gates decided for a Subscription that is neither
// deleting nor deactivated.
type verdict struct {
	// reason and message are the Ready=False holding state; reason is
	// empty when every gate passed.
	reason, message string
	// end is the Active=False reason when the Subscription deactivates
	// now; empty otherwise. Only an active Subscription ends.
	end string
	// orphaned is set when an active Subscription lost its parent under
	// the Orphan policy and went on.
	orphaned bool
	// stamp is the compatibilityRoot to write when none is stamped yet.
	stamp string
}

func hold(reason, format string, args ...any) verdict {
	return verdict{reason: reason, message: msg(format, args...)}
}

// gates runs the checks in their fixed order; the first failure wins.
//
//  0. the two self-references, which need no read and never clear by
//     waiting (the seed files both under the Offering gate);
//  1. Offering; 2. Parent; then the root stamp; 3. Compatibility; 4. Target.
func (e *evaluator) gates(i int32) verdict {
	n := &e.nodes[i]
	s := n.sub
	active := s.IsActive()
	self := s.Key()

	if p := s.Spec.Parent; p != nil && p.SubscriptionRef == self {
		return hold(ReasonCircularDependencyDetected,
			"spec.parent.subscriptionRef names this Subscription (%s)", self)
	}
	if t := targetOf(s); t != nil && t.APIVersion == finopsv1.APIVersion && t.Kind == finopsv1.KindSubscription &&
		t.Namespace == s.Namespace && t.Name == s.Name {
		return hold(ReasonTargetIsSelfReference,
			"spec.lifecycle.targetRef names this Subscription (%s)", self)
	}

	// 1. Offering.
	ref := s.Spec.OfferingRef
	if ref.Namespace == "" || ref.Name == "" {
		return hold(ReasonOfferingNotFound,
			"offering gate: spec.offeringRef needs both name and namespace (namespace is never defaulted)")
	}
	off, failed := e.offering(ref)
	switch {
	case failed:
		return hold(ReasonValidationError, "offering gate: reading Offering %s failed; retrying", ref)
	case off == nil:
		return hold(ReasonOfferingNotFound, "offering gate: Offering %s not found", ref)
	case !off.IsReady():
		return hold(ReasonOfferingNotReady, "offering gate: Offering %s is not ready", ref)
	}

	// 2. Parent.
	var v verdict
	if p := s.Spec.Parent; p != nil {
		pref := p.SubscriptionRef
		lost := ""
		switch {
		case pref.Namespace == "" || pref.Name == "":
			return hold(ReasonParentSubscriptionNotFound,
				"parent gate: spec.parent.subscriptionRef needs both name and namespace (namespace is never defaulted)")
		case n.parentFailed:
			return hold(ReasonValidationError, "parent gate: reading parent Subscription %s failed; retrying", pref)
		case n.parent < 0:
			lost = ReasonParentSubscriptionNotFound
		case e.nodes[n.parent].sub.IsDeactivated():
			lost = ReasonParentSubscriptionDeactivated
		}
		switch {
		case lost != "" && !active:
			if lost == ReasonParentSubscriptionNotFound {
				return hold(lost, "parent gate: parent Subscription %s not found", pref)
			}
			return hold(lost, "parent gate: parent Subscription %s has been deactivated", pref)
		case lost != "" && effectivePolicy(s, off) == finopsv1.PolicyDeactivate:
			return verdict{end: ReasonParentDeactivated,
				message: msg("parent Subscription %s ended or disappeared and the effective policy is Deactivate", pref)}
		case lost != "":
			v.orphaned = true
		case !isReady(e.nodes[n.parent].sub):
			return hold(ReasonParentSubscriptionNotReady, "parent gate: parent Subscription %s is not ready", pref)
		case s.Status.CompatibilityRoot == "" && n.rootState == rootLoop:
			return hold(ReasonParentSubscriptionNotReady,
				"parent gate: the chain of parents above %s loops back on itself", self)
		case s.Status.CompatibilityRoot == "" && n.rootState == rootFailed:
			return hold(ReasonValidationError, "parent gate: reading an ancestor of %s failed; retrying", self)
		case s.Status.CompatibilityRoot == "" && n.rootState != rootKnown:
			return hold(ReasonParentSubscriptionNotReady,
				"parent gate: an ancestor of %s is missing, so the family root cannot be found", self)
		case s.Status.CompatibilityRoot == "" && e.parentUnstamped(n):
			return hold(ReasonParentSubscriptionNotReady,
				"parent gate: parent Subscription %s has no status.compatibilityRoot yet, so the family root is not known", pref)
		}
	}

	// Root stamp, between the parent and compatibility gates.
	root := s.Status.CompatibilityRoot
	if root == "" {
		switch {
		case n.rootState != rootKnown:
			// Only an orphan whose parent is already gone gets here.
			return e.keep(v, hold(ReasonValidationError,
				"compatibility gate: status.compatibilityRoot is unset and the parent is gone, so the family cannot be found; retrying"))
		case e.parentUnstamped(n):
			// Only an orphan of a deactivated, never-stamped parent.
			return e.keep(v, hold(ReasonValidationError,
				"compatibility gate: status.compatibilityRoot is unset and so is the parent's, so the family cannot be found; retrying"))
		case n.root == "":
			return e.keep(v, hold(ReasonValidationError,
				"compatibility gate: the family root has no metadata.uid; retrying"))
		case e.uidShared(types.UID(n.root)):
			return e.keep(v, hold(ReasonValidationError,
				"compatibility gate: the family root's metadata.uid %s is shared by several Subscriptions; retrying", n.root))
		}
		root = n.root
		v.stamp = root
	}

	// 3. Compatibility.
	if c := off.Spec.Compatibility; c != nil {
		for _, req := range c.RequiredOfferings {
			if req.Namespace != "" && req.Name != "" &&
				e.covered(i, root, req) {
				continue
			}
			// The requirement is the Offering's text, not the Subscription's.
			m := msg("required offering %s not covered by an active subscription in the family",
				redact.Message(req.Namespace+"/"+req.Name))
			if active {
				return verdict{end: ReasonCompatibilityRequirementNotMet, message: m, stamp: v.stamp}
			}
			return verdict{reason: ReasonCompatibilityRequirementNotMet, message: m, stamp: v.stamp}
		}
	}

	// 4. Target.
	if t := targetOf(s); t != nil {
		obj := ObjectRef{APIVersion: t.APIVersion, Kind: t.Kind, Namespace: t.Namespace, Name: t.Name}
		switch {
		case t.APIVersion == "" || t.Kind == "" || t.Name == "":
			return e.keep(v, hold(ReasonValidationError,
				"target gate: spec.lifecycle.targetRef needs apiVersion, kind and name"))
		case e.fails(t.APIVersion, t.Kind, t.Namespace, t.Name):
			return e.keep(v, hold(ReasonValidationError, "target gate: reading target %s failed; retrying", obj.describe()))
		case !e.exists(obj) && active:
			return verdict{end: ReasonTargetNotFound, message: msg("target %s was deleted", obj.describe()), stamp: v.stamp}
		case !e.exists(obj):
			return e.keep(v, hold(ReasonTargetNotFound, "target gate: target %s not found", obj.describe()))
		}
	}
	return v
}

// parentUnstamped reports whether node n's parent is in the snapshot
// without a stamped compatibilityRoot. A new Subscription inherits its
// root from the parent's stamp only, never by walking past an unstamped
// parent, so such a chain is incomplete.
func (e *evaluator) parentUnstamped(n *node) bool {
	return n.parent >= 0 && e.nodes[n.parent].sub.Status.CompatibilityRoot == ""
}

// keep carries the orphan mark and the root stamp of the gates passed so
// far into a later gate's holding state.
func (e *evaluator) keep(passed, failed verdict) verdict {
	failed.orphaned = passed.orphaned
	failed.stamp = passed.stamp
	return failed
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

// describe names an object for a message: kind, namespace/name and API
// version, all as the Subscription's own spec wrote them.
func (r ObjectRef) describe() string {
	return r.Kind + " " + manifest.JoinName(r.Namespace, r.Name) + " (" + r.APIVersion + ")"
}
