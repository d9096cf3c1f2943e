package pricebook

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
)

// Condition types of a PriceBook, in the order they are written.
const (
	TypeReady  = conditions.TypeReady
	TypeActive = "Active"
)

// Reasons a PriceBook's conditions carry.
const (
	// ReasonValidationSucceeded goes with Ready=True: every rate converts.
	ReasonValidationSucceeded = conditions.ReasonValidationSucceeded
	// ReasonPricebookParseFailed goes with Ready=False: a rate does not.
	ReasonPricebookParseFailed = "PricebookParseFailed"
	// ReasonActivated goes with Active=True: the book took the slot.
	ReasonActivated = "Activated"
	// ReasonDemoted goes with Active=False: another book took it.
	ReasonDemoted = "Demoted"
)

// What the Active rules write; the kept rule may keep either.
var (
	writeActivated = conditions.Reason{Status: metav1.ConditionTrue, Reason: ReasonActivated,
		Meaning: "The book took the active slot; when it is also ready its rates are what OpenCost prices with.",
		Action:  "None."}
	writeDemoted = conditions.Reason{Status: metav1.ConditionFalse, Reason: ReasonDemoted,
		Meaning: "Another book took the slot; this book's status.activePricing was cleared.",
		Action:  "None, unless this book should win: annotate it " + finopsv1.ActiveAnnotation + "=\"true\"."}
)

// The PriceBook's rules, each declared once; the vocabulary, the rule
// table and the reason order are read from this array.
//
//	rule          condition       decided by
//	valid         Ready=True      evaluateBook: every rate parses
//	parse-failed  Ready=False     evaluateBook: the first rate that does not
//	activated     Active=True     the election, a book not holding the slot
//	demoted       Active=False    the election, a book holding it
//	kept          Active as held  no transition (absent stays absent)
const (
	ruleValid = iota
	ruleParseFailed
	ruleActivated
	ruleDemoted
	ruleKept
)

var rules = [...]conditions.Rule{
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
	ruleActivated: {ID: "pricebook/active/activated", Kind: finopsv1.KindPriceBook, Types: []string{TypeActive},
		Sentence: "the book wins the election (annotated, then incumbent, then newest; ties by namespace, name, UID) and did not hold the slot",
		Writes:   []conditions.Reason{writeActivated}},
	ruleDemoted: {ID: "pricebook/active/demoted", Kind: finopsv1.KindPriceBook, Types: []string{TypeActive},
		Sentence: "the book held the slot and another book wins the election",
		Writes:   []conditions.Reason{writeDemoted}},
	ruleKept: {ID: "pricebook/active/kept", Kind: finopsv1.KindPriceBook, Types: []string{TypeActive},
		Sentence: "no transition: Active stays exactly as the object carries it",
		Writes:   []conditions.Reason{writeActivated, writeDemoted}},
}

// Vocabulary is the PriceBook's condition table, read from its rules.
// Ready is always written; Active appears only once the book's active
// flag has changed.
var Vocabulary = conditions.MustVocabulary(finopsv1.APIVersion, finopsv1.KindPriceBook, []conditions.Type{
	{Name: TypeReady, Required: true,
		Meaning: "Whether this book's own rates can be used; selection does not look at it."},
	{Name: TypeActive,
		Meaning: "Whether this book holds the cluster's single active slot; written only when that changes."},
}, conditions.FromRules(rules[:]))

// Rules is the table of the rules that decide a PriceBook's conditions,
// one sentence each. The slice is a copy.
func Rules() []conditions.Rule { return Vocabulary.Rules() }
