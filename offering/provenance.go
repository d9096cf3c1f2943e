package offering

import (
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
)

// Rule IDs of the Offering's conditions; Rules lists them. The checks
// decide Ready and PricingResolved together, with the same reason.
const (
	ruleCircular        = "offering/checks/circular-dependency"
	ruleRequiredMissing = "offering/checks/required-offering-not-found"
	ruleRequiredUnready = "offering/checks/required-offering-not-ready"
	ruleReadFailed      = "offering/checks/read-failed"
	ruleNoActiveBook    = "offering/checks/no-active-pricebook"
	ruleBookParseFailed = "offering/checks/pricebook-parse-failed"
	rulePassed          = "offering/checks/passed"
	ruleKeptWhileDelete = "offering/deleting/keeps-ready-and-pricing"
	ruleListFailed      = "offering/deleting/list-failed"
	ruleDependentSubs   = "offering/deleting/dependent-subscriptions"
	ruleDependentOffs   = "offering/deleting/dependent-offerings"
	ruleDeleteAllowed   = "offering/deleting/allowed"
)

var checkRules = map[string]string{
	ReasonCircularDependencyDetected: ruleCircular,
	ReasonRequiredOfferingNotFound:   ruleRequiredMissing,
	ReasonRequiredOfferingNotReady:   ruleRequiredUnready,
	ReasonValidationError:            ruleReadFailed,
	ReasonNoActivePricebook:          ruleNoActiveBook,
	ReasonPricebookParseFailed:       ruleBookParseFailed,
	"":                               rulePassed,
}

// Rules is the table of the rules that decide an Offering's conditions,
// one sentence each, in the order they are tried. The slice is a copy.
func Rules() []conditions.Rule {
	both := []string{TypeReady, TypePricingResolved}
	f := metav1.ConditionFalse
	check := func(id, sentence, reason string) conditions.Rule {
		return conditions.Rule{ID: id, Kind: finopsv1.KindOffering, Types: both, Sentence: sentence, Reasons: []conditions.Pair{{Status: f, Reason: reason}}}
	}
	del := func(id, sentence string, st metav1.ConditionStatus, reason string) conditions.Rule {
		return conditions.Rule{ID: id, Kind: finopsv1.KindOffering, Types: []string{TypeDeleting}, Sentence: sentence, Reasons: []conditions.Pair{{Status: st, Reason: reason}}}
	}
	return []conditions.Rule{
		check(ruleCircular, "following requiredOfferings from this Offering runs into a loop", ReasonCircularDependencyDetected),
		check(ruleRequiredMissing, "a requiredOfferings entry lacks a name or namespace, or names no Offering in the snapshot", ReasonRequiredOfferingNotFound),
		check(ruleRequiredUnready, "a required Offering's status.ready is not True", ReasonRequiredOfferingNotReady),
		check(ruleReadFailed, "reading a required Offering or the active PriceBook failed", ReasonValidationError),
		check(ruleNoActiveBook, "metered prices are declared and no PriceBook with status.active is a currency book", ReasonNoActivePricebook),
		check(ruleBookParseFailed, "a meter's rate on the active PriceBook, or that rate after the margin, is unusable", ReasonPricebookParseFailed),
		{ID: rulePassed, Kind: finopsv1.KindOffering, Types: both, Sentence: "every requirement is a ready Offering and the pricing is published (or was published before and is kept)",
			Reasons: []conditions.Pair{{Status: metav1.ConditionTrue, Reason: ReasonValidationSucceeded}, {Status: metav1.ConditionTrue, Reason: ReasonPricingResolved}}},
		{ID: ruleKeptWhileDelete, Kind: finopsv1.KindOffering, Types: both, Sentence: "while the Offering is deleted, Ready and PricingResolved stay exactly as the object carries them",
			Reasons: append(Vocabulary.Pairs(TypeReady, nil), Vocabulary.Pairs(TypePricingResolved, nil)...)},
		del(ruleListFailed, "listing the Subscriptions or the Offerings failed, so the dependents are unknown", f, ReasonValidationError),
		del(ruleDependentSubs, "a Subscription whose status.ready is True names this Offering in spec.offeringRef", f, ReasonDependentSubscriptionsExist),
		del(ruleDependentOffs, "an Offering whose status.ready is True lists this one among its requiredOfferings", f, ReasonDependentOfferingsExist),
		del(ruleDeleteAllowed, "no ready dependent is left, so the finalizer goes in the same write", metav1.ConditionTrue, ReasonDeletionAllowed),
	}
}

// Explain is Evaluate with provenance: each Outcome also carries, in
// Provenance, the rule and the raw evidence behind each of its
// conditions (for logs and tools, never a status). Evaluate leaves
// Provenance nil.
func Explain(s Snapshot) (Result, error) {
	if err := conditions.CheckNow(s.Now); err != nil {
		return Result{}, err
	}
	return evaluate(s, true), nil
}

func ref(o *finopsv1.Offering) conditions.ObjectRef {
	return conditions.ObjectRef{Kind: finopsv1.KindOffering, Namespace: o.Namespace, Name: o.Name, UID: o.UID, Generation: o.Generation}
}

// explain fills the Provenance of every outcome, after the evaluation:
// the checks are pure, so running them again gives the verdict the
// outcome was built from.
func (e *evaluator) explain(res *Result) {
	for i := range e.s.Offerings {
		out := &res.Offerings[i]
		if e.s.Offerings[i].IsDeleting() {
			out.Provenance = e.explainDeletion(int32(i), *out)
		} else {
			out.Provenance = e.explainReadiness(int32(i), e.check(int32(i)), *out)
		}
	}
}

// explainReadiness records the checks' verdict v for Ready and
// PricingResolved.
func (e *evaluator) explainReadiness(i int32, v verdict, out Outcome) []conditions.Provenance {
	o := &e.s.Offerings[i]
	p := conditions.Provenance{Rule: checkRules[v.reason]}
	p.Add(ref(o))
	if v.message != "" {
		p.Add(ref(o), conditions.F("finding", v.message))
	}
	for k, r := range requirements(o) {
		field := "spec.compatibility.requiredOfferings[" + strconv.Itoa(k) + "]"
		j, ok := e.idx[r]
		switch {
		case e.fails.get(finopsv1.KindOffering, r.Namespace, r.Name):
			p.Add(conditions.ObjectRef{}, conditions.F("failure", finopsv1.KindOffering+" "+r.String()))
		case !ok:
			p.Add(ref(o), conditions.F(field, r.String()+" (not found)"))
		default:
			req := &e.s.Offerings[j]
			p.Add(ref(req), conditions.F("status.ready", string(req.Status.Ready)))
		}
	}
	switch {
	case o.Status.ResolvedPricing != nil:
		p.Add(ref(o), conditions.FTime("status.resolvedPricing.resolvedAt", o.Status.ResolvedPricing.ResolvedAt.Time))
	case len(o.Spec.Pricing.ResourcePricing) > 0 && e.book >= 0:
		b := &e.s.PriceBooks[e.book]
		p.Add(conditions.ObjectRef{Kind: finopsv1.KindPriceBook, Namespace: b.Namespace, Name: b.Name, UID: b.UID, Generation: b.Generation},
			conditions.F("status.active", "true"), conditions.F("spec.valuationMode", string(b.Spec.ValuationMode)))
	case len(o.Spec.Pricing.ResourcePricing) > 0:
		p.Add(conditions.ObjectRef{}, conditions.F("activePriceBook", "none has status.active"))
	}
	conditions.SortEvidence(&p)
	ready, pr := p, p
	ready.Type, pr.Type = TypeReady, TypePricingResolved
	pr.Evidence = append([]conditions.Evidence(nil), p.Evidence...)
	return Vocabulary.Attach(out.Status.Conditions, out.Skip == conditions.SkipStale, ref(o), []conditions.Provenance{ready, pr})
}

// explainDeletion records the guard's decision, read back from Deleting, and the
// kept Ready and PricingResolved.
func (e *evaluator) explainDeletion(i int32, out Outcome) []conditions.Provenance {
	o := &e.s.Offerings[i]
	d := conditions.Provenance{Type: TypeDeleting}
	d.Add(ref(o), conditions.FTime("metadata.deletionTimestamp", o.DeletionTimestamp.Time))
	deps := e.dependents()
	reason := ""
	if c := conditions.Find(out.Status.Conditions, TypeDeleting); c != nil {
		reason = c.Reason
	}
	switch reason {
	case ReasonValidationError:
		d.Rule = ruleListFailed
		d.Add(conditions.ObjectRef{}, conditions.F("failure", "list Subscriptions or Offerings"))
	case ReasonDependentSubscriptionsExist:
		d.Rule = ruleDependentSubs
		for _, r := range deps.subs[o.Key()] {
			d.Add(conditions.ObjectRef{Kind: "Subscription", Namespace: r.Namespace, Name: r.Name},
				conditions.F("spec.offeringRef", o.Key().String()), conditions.F("status.ready", "True"))
		}
	case ReasonDependentOfferingsExist:
		d.Rule = ruleDependentOffs
		for _, r := range deps.offs[o.Key()] {
			dep := conditions.ObjectRef{Kind: finopsv1.KindOffering, Namespace: r.Namespace, Name: r.Name}
			if j, ok := e.idx[r]; ok {
				dep = ref(&e.s.Offerings[j])
			}
			d.Add(dep, conditions.F("spec.compatibility.requiredOfferings", o.Key().String()), conditions.F("status.ready", "True"))
		}
	default:
		d.Rule = ruleDeleteAllowed
	}
	conditions.SortEvidence(&d)
	decided := []conditions.Provenance{d}
	for _, t := range []string{TypeReady, TypePricingResolved} {
		k := conditions.Provenance{Type: t, Rule: ruleKeptWhileDelete}
		k.Add(ref(o), conditions.FTime("metadata.deletionTimestamp", o.DeletionTimestamp.Time))
		decided = append(decided, k)
	}
	return Vocabulary.Attach(out.Status.Conditions, out.Skip == conditions.SkipStale, ref(o), decided)
}
