package offering

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/redact"
)

// dependents groups, once per snapshot, the ready objects that hold each
// Offering: Subscriptions by offeringRef and Offerings by requirement.
type dependents struct {
	subs map[finopsv1.Reference][]finopsv1.Reference
	offs map[finopsv1.Reference][]finopsv1.Reference
}

func (e *evaluator) dependents() *dependents {
	if e.deps != nil {
		return e.deps
	}
	d := &dependents{subs: map[finopsv1.Reference][]finopsv1.Reference{}, offs: map[finopsv1.Reference][]finopsv1.Reference{}}
	for _, s := range e.s.Dependents {
		if s.Ready {
			d.subs[s.OfferingRef] = append(d.subs[s.OfferingRef], finopsv1.Reference{Namespace: s.Namespace, Name: s.Name})
		}
	}
	for i := range e.s.Offerings {
		o := &e.s.Offerings[i]
		if !o.IsReady() {
			continue
		}
		k := o.Key()
		for _, r := range requirements(o) {
			// An Offering listing itself cannot hold its own delete.
			if r != k {
				d.offs[r] = append(d.offs[r], k)
			}
		}
	}
	e.deps = d
	return d
}

// This file decides a deleting Offering's conditions, and is the one
// place the rules and reasons of Deleting are declared.

// Reasons of Deleting (ReasonValidationError, shared with the checks, is
// declared beside them).
const (
	// ReasonDependentSubscriptionsExist goes with Deleting, False.
	ReasonDependentSubscriptionsExist Reason = "DependentSubscriptionsExist"
	// ReasonDependentOfferingsExist goes with Deleting, False.
	ReasonDependentOfferingsExist Reason = "DependentOfferingsExist"
	// ReasonDeletionAllowed goes with Deleting, True.
	ReasonDeletionAllowed Reason = "DeletionAllowed"
)

// The rules of a deleting Offering: Ready and PricingResolved kept, then
// Deleting's, in the order the guard tries them.
const (
	ruleKeptWhileDeleting = iota
	ruleListFailed
	ruleDependentSubs
	ruleDependentOffs
	ruleDeleteAllowed
)

var deleteRules = [...]conditions.Rule{
	ruleKeptWhileDeleting: {ID: "offering/deleting/keeps-ready-and-pricing", Kind: finopsv1.KindOffering,
		Types:    []string{TypeReady, TypePricingResolved},
		Sentence: "while the Offering is deleted, Ready and PricingResolved stay as the object carries them, their messages redacted again",
		Writes:   keptWrites()},
	ruleListFailed: deletingRule("offering/deleting/list-failed", "listing the Subscriptions or the Offerings failed, so the dependents are unknown",
		write(metav1.ConditionFalse, ReasonValidationError, "Listing the dependents failed; the host retries.",
			"Read the message; it usually clears by itself.")),
	ruleDependentSubs: deletingRule("offering/deleting/dependent-subscriptions", "a Subscription whose status.ready is True names this Offering in spec.offeringRef",
		write(metav1.ConditionFalse, ReasonDependentSubscriptionsExist, "A ready Subscription still binds to this Offering; the finalizer stays.",
			"Delete or move those Subscriptions first.")),
	ruleDependentOffs: deletingRule("offering/deleting/dependent-offerings", "an Offering whose status.ready is True lists this one among its requiredOfferings",
		write(metav1.ConditionFalse, ReasonDependentOfferingsExist, "A ready Offering still lists this one among its requiredOfferings; the finalizer stays.",
			"Delete that Offering first, or replace it with one that does not need this.")),
	ruleDeleteAllowed: deletingRule("offering/deleting/allowed", "no ready dependent is left, so the finalizer goes in the same write",
		write(metav1.ConditionTrue, ReasonDeletionAllowed, "No ready dependent is left; the finalizer is dropped in the same write.", "None.")),
}

func deletingRule(id, sentence string, w conditions.Reason) conditions.Rule {
	return conditions.Rule{ID: id, Kind: finopsv1.KindOffering, Types: []string{TypeDeleting},
		Sentence: sentence, Writes: []conditions.Reason{w}}
}

// keptWrites is every pair the checks may have written, in rule order:
// what a deleting Offering may keep.
func keptWrites() []conditions.Reason {
	var out []conditions.Reason
	for _, r := range readyRules {
		out = append(out, r.Writes...)
	}
	return out
}

// deletion runs the guard for an Offering with a deletion timestamp.
// Ready and PricingResolved stay as they were, their messages redacted
// again: the delete branch decides only whether the finalizer may go.
func (e *evaluator) deletion(i int32, rec *conditions.Recorder) Outcome {
	o := &e.s.Offerings[i]
	var v conditions.Verdict
	if rec.On() {
		rec.Read(TypeDeleting, ref(o), conditions.FTime("metadata.deletionTimestamp", o.DeletionTimestamp.Time))
	}
	d := e.dependents()
	subs, offs := d.subs[o.Key()], d.offs[o.Key()]
	switch {
	case e.fails.list("Subscription") || e.fails.list(finopsv1.KindOffering):
		v = deleteRules[ruleListFailed].Verdict(0, "cannot list the dependents of this offering", o.Generation)
		if rec.On() {
			rec.Read(TypeDeleting, conditions.ObjectRef{}, conditions.F("failure", "list Subscriptions or Offerings"))
		}
	case len(subs) > 0:
		v = deleteRules[ruleDependentSubs].Verdict(0, conditions.FitMessage(dependentsMessage("still referenced by subscriptions", o.Namespace, subs)), o.Generation)
		for k := 0; rec.On() && k < len(subs); k++ {
			rec.Read(TypeDeleting, conditions.ObjectRef{Kind: "Subscription", Namespace: subs[k].Namespace, Name: subs[k].Name},
				conditions.F("spec.offeringRef", o.Key().String()), conditions.F("status.ready", "True"))
		}
	case len(offs) > 0:
		v = deleteRules[ruleDependentOffs].Verdict(0, conditions.FitMessage(dependentsMessage("still required by dependent resources", o.Namespace, offs)), o.Generation)
		for k := 0; rec.On() && k < len(offs); k++ {
			dep := conditions.ObjectRef{Kind: finopsv1.KindOffering, Namespace: offs[k].Namespace, Name: offs[k].Name}
			if j, ok := e.idx[offs[k]]; ok {
				dep = ref(&e.s.Offerings[j])
			}
			rec.Read(TypeDeleting, dep, conditions.F("spec.compatibility.requiredOfferings", o.Key().String()), conditions.F("status.ready", "True"))
		}
	default:
		v = deleteRules[ruleDeleteAllowed].Verdict(0, "", o.Generation)
	}
	rec.Decided(TypeDeleting, "", v)
	kept := conditions.Verdict{Rule: &deleteRules[ruleKeptWhileDeleting]}
	for _, t := range [...]string{TypeReady, TypePricingResolved} {
		rec.Decided(t, "", kept)
		if rec.On() {
			rec.Read(t, ref(o), conditions.FTime("metadata.deletionTimestamp", o.DeletionTimestamp.Time))
		}
	}
	desired := keep(Vocabulary.Held(o.Status.Conditions, o.CreationTimestamp.Time), TypeReady, TypePricingResolved)
	for k := range desired {
		// Carried as stored, their messages redacted again: anyone who can
		// write the status may have put a secret there.
		desired[k].Message = e.seen(o.Namespace).Message(desired[k].Message)
	}
	desired = append(desired, v.Condition(TypeDeleting))
	out, m := e.write(o, desired)
	if m.Stale {
		return out
	}
	allowed := v.Status == metav1.ConditionTrue
	if allowed && slices.Contains(o.Finalizers, finopsv1.OfferingFinalizer) {
		out.Finalizer = conditions.FinalizerRemove
	}
	out.Retry = !allowed
	return out
}

// maxNamed bounds how many dependents a message names.
const maxNamed = 5

// dependentsMessage names the dependents in the Offering's own namespace,
// sorted, and only counts those elsewhere: another namespace's object
// names are its own business.
func dependentsMessage(lead, ns string, refs []finopsv1.Reference) string {
	own := make([]finopsv1.Reference, 0, len(refs))
	for _, r := range refs {
		if r.Namespace == ns {
			own = append(own, r)
		}
	}
	slices.SortFunc(own, func(a, b finopsv1.Reference) int { return cmp.Compare(a.Name, b.Name) })
	own = slices.Compact(own)
	var b strings.Builder
	b.WriteString(lead)
	b.WriteString(": ")
	for k, r := range own {
		if k == maxNamed {
			fmt.Fprintf(&b, " and %d more", len(own)-maxNamed)
			break
		}
		if k > 0 {
			b.WriteString(", ")
		}
		b.WriteString(redact.Name(r.String())) // a dependent of the Offering's namespace, as written
	}
	if other := len(refs) - countIn(refs, ns); other > 0 {
		if len(own) > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%d in other namespaces", other)
	}
	return b.String()
}

func countIn(refs []finopsv1.Reference, ns string) int {
	n := 0
	for _, r := range refs {
		if r.Namespace == ns {
			n++
		}
	}
	return n
}
