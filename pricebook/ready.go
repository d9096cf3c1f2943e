package pricebook

import (
	"errors"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
)

// Reasons of a PriceBook's Ready condition.
const (
	// ReasonValidationSucceeded goes with Ready=True: every rate converts.
	ReasonValidationSucceeded = conditions.ReasonValidationSucceeded
	// ReasonPricebookParseFailed goes with Ready=False: a rate does not.
	ReasonPricebookParseFailed = "PricebookParseFailed"
)

// Ready's rules, decided by readiness: valid when every rate parses,
// parse-failed at the first rate that does not.
const (
	ruleValid ruleIndex = iota
	ruleParseFailed
	readyEnd
)

var readyRules = []conditions.Rule{
	ruleValid: {ID: "pricebook/ready/valid", Kind: finopsv1.KindPriceBook, Types: []string{TypeReady},
		Sentence: "every rate converts to micro-units, or the valuation mode is not currency",
		Writes: []conditions.Reason{{Status: metav1.ConditionTrue, Reason: ReasonValidationSucceeded,
			Meaning: "All rates convert to micro-units, or the book is not a currency book and has nothing to convert.",
			Action:  "None."}}},
	ruleParseFailed: {ID: "pricebook/ready/parse-failed", Kind: finopsv1.KindPriceBook, Types: []string{TypeReady},
		Sentence: "the first rate in field order that does not convert to micro-units makes the book not ready",
		Writes: []conditions.Reason{{Status: metav1.ConditionFalse, Reason: ReasonPricebookParseFailed,
			Meaning: "The first rate, in field order, that does not convert to micro-units; the message quotes it.",
			Action:  "Correct the named rate; usually it is too large or has more than six decimal places."}}},
}

// Readiness parses the book's rates: nil when it is ready, else the first
// failure as a *RateError. A book whose valuation mode is not currency is
// ready without parsing anything.
func Readiness(b *finopsv1.PriceBook) error {
	if b.Spec.ValuationMode != finopsv1.ValuationCurrency {
		return nil
	}
	_, err := ParseRates(b.Spec.Rates)
	return err
}

// readiness decides Ready from the book's rates.
func readiness(b *finopsv1.PriceBook, rec *conditions.Recorder) conditions.Verdict {
	if rec.On() {
		rec.Read(TypeReady, ref(b), conditions.F("spec.valuationMode", string(b.Spec.ValuationMode)))
	}
	err := Readiness(b)
	if err == nil {
		return rules[ruleValid].Verdict(0, "", b.Generation)
	}
	if rec.On() {
		var re *RateError
		if errors.As(err, &re) {
			rec.Read(TypeReady, ref(b), conditions.F("spec.rates."+re.Field, re.Value), conditions.F("problem", re.Problem))
		} else {
			rec.Read(TypeReady, ref(b), conditions.F("problem", err.Error()))
		}
	}
	return rules[ruleParseFailed].Verdict(0, conditions.FitMessage(err.Error()), b.Generation)
}
