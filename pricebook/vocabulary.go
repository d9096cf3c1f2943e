package pricebook

import (
	"slices"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
)

// Condition types of a PriceBook, in the order they are written.
const (
	TypeReady  = conditions.TypeReady
	TypeActive = "Active"
)

// ruleIndex names a rule by its position in rules.
type ruleIndex uint8

// rules is the PriceBook's rule table, in the order the docs list it. Each
// condition's rules are declared beside the code that decides it, Ready's
// in ready.go and Active's in active.go, at the indices of their own
// rules; the vocabulary, the rule table and the reason order are read
// from this join.
var rules = [activeEnd]conditions.Rule(slices.Concat(readyRules, activeRules[readyEnd:]))

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
