package pricebook

import (
	"errors"
	"strconv"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
)

// Rule IDs of the PriceBook's conditions; Rules lists them.
const (
	ruleReadyValid       = "pricebook/ready/valid"
	ruleReadyParseFailed = "pricebook/ready/parse-failed"
	ruleActivated        = "pricebook/active/activated"
	ruleDemoted          = "pricebook/active/demoted"
	ruleActiveKept       = "pricebook/active/kept"
)

// Rules is the table of the rules that decide a PriceBook's conditions,
// one sentence each. The slice is a copy.
func Rules() []conditions.Rule {
	one := func(id, typ, sentence string, st metav1.ConditionStatus, reason string) conditions.Rule {
		return conditions.Rule{ID: id, Kind: finopsv1.KindPriceBook, Types: []string{typ}, Sentence: sentence, Reasons: []conditions.Pair{{Status: st, Reason: reason}}}
	}
	return []conditions.Rule{
		one(ruleReadyValid, TypeReady, "every rate converts to micro-units, or the valuation mode is not currency", metav1.ConditionTrue, ReasonValidationSucceeded),
		one(ruleReadyParseFailed, TypeReady, "the first rate in field order that does not convert to micro-units makes the book not ready", metav1.ConditionFalse, ReasonPricebookParseFailed),
		one(ruleActivated, TypeActive, "the book wins the election (annotated, then incumbent, then newest; ties by namespace, name, UID) and did not hold the slot", metav1.ConditionTrue, ReasonActivated),
		one(ruleDemoted, TypeActive, "the book held the slot and another book wins the election", metav1.ConditionFalse, ReasonDemoted),
		{ID: ruleActiveKept, Kind: finopsv1.KindPriceBook, Types: []string{TypeActive}, Sentence: "no transition: Active stays exactly as the object carries it",
			Reasons: Vocabulary.Pairs(TypeActive, nil)},
	}
}

// Explain is Evaluate with provenance: each Outcome also carries, in
// Provenance, the rule and the raw evidence behind each of its
// conditions (for logs and tools, never a status). Evaluate leaves
// Provenance nil.
func Explain(books []finopsv1.PriceBook, previous map[string]string, now time.Time) (Result, error) {
	r, err := Evaluate(books, previous, now)
	if err != nil {
		return r, err
	}
	winner := Elect(books)
	for k, i := range outcomeOrder(books) {
		r.Books[k].Provenance = explainBook(books, i, winner, r.Books[k])
	}
	return r, nil
}

func ref(b *finopsv1.PriceBook) conditions.ObjectRef {
	return conditions.ObjectRef{Kind: finopsv1.KindPriceBook, Namespace: b.Namespace, Name: b.Name, UID: b.UID, Generation: b.Generation}
}

var tierNames = [...]string{tierNewest: "newest", tierIncumbent: "incumbent (status.active)", tierAnnotated: "annotated " + finopsv1.ActiveAnnotation + "=true"}

func explainBook(books []finopsv1.PriceBook, i, winner int, out Outcome) []conditions.Provenance {
	b := &books[i]
	self := ref(b)
	ready := conditions.Provenance{Type: TypeReady, Rule: ruleReadyValid}
	ready.Add(self, conditions.F("spec.valuationMode", string(b.Spec.ValuationMode)))
	var re *RateError
	if err := Readiness(b); errors.As(err, &re) {
		ready.Rule = ruleReadyParseFailed
		ready.Add(self, conditions.F("spec.rates."+re.Field, re.Value), conditions.F("problem", re.Problem))
	} else if err != nil {
		ready.Rule = ruleReadyParseFailed
		ready.Add(self, conditions.F("problem", err.Error()))
	}
	active := conditions.Provenance{Type: TypeActive}
	won := i == winner
	active.Add(self, conditions.F("status.active", strconv.FormatBool(b.Status.Active)),
		conditions.F("election.tier", tierNames[tier(b)]), conditions.FTime("metadata.creationTimestamp", b.CreationTimestamp.Time))
	switch {
	case won && !b.Status.Active:
		active.Rule = ruleActivated
	case !won && b.Status.Active:
		active.Rule = ruleDemoted
	default:
		active.Rule = ruleActiveKept
	}
	if !won && winner >= 0 {
		w := &books[winner]
		active.Add(ref(w), conditions.F("election.tier", tierNames[tier(w)]), conditions.FTime("metadata.creationTimestamp", w.CreationTimestamp.Time))
	}
	return Vocabulary.Attach(out.Status.Conditions, out.Skip == conditions.SkipStale, self, []conditions.Provenance{ready, active})
}
