package offering

import (
	"slices"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
)

// Condition types of an Offering, in the order they are written.
const (
	TypeReady           = conditions.TypeReady
	TypePricingResolved = "PricingResolved"
	TypeDeleting        = "Deleting"
)

// rules is the Offering's rule table: the checks (ready.go), then the
// deletion guard (delete.go). Each rule is declared beside the code that
// returns it; this file only puts the two together.
var rules = slices.Concat(readyRules[:], deleteRules[:])

// Vocabulary is the Offering's condition table, read from its rules.
// Ready and PricingResolved always appear together; Deleting appears
// once a deletion timestamp is set.
var Vocabulary = conditions.MustVocabulary(finopsv1.APIVersion, finopsv1.KindOffering, []conditions.Type{
	{Name: TypeReady, Meaning: "Whether Subscriptions can bind to the Offering; mirrored into status.ready."},
	{Name: TypePricingResolved, Meaning: "Whether status.resolvedPricing is published; always agrees with Ready."},
	{Name: TypeDeleting, Meaning: "Whether a deleting Offering may lose its finalizer."},
}, conditions.FromRules(byType(rules)))

// Rules is the table of the rules that decide an Offering's conditions,
// one sentence each, in the order they are tried. The slice is a copy.
func Rules() []conditions.Rule { return slices.Clone(rules) }
