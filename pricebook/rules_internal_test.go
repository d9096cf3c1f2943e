package pricebook

import (
	"testing"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/conditions/conditionstest"
)

// The PriceBook's table passes the checks every kind's does. Its reasons
// are untyped strings, so the checks of Reason constants find none here.
func TestRules_EveryPartOfEveryReasonIsDeclared(t *testing.T) {
	conditionstest.CheckRuleTable(t, conditionstest.RuleTable{
		Prefix: "pricebook/",
		Rules:  rules[:],
		Vocabulary: func(table []conditions.Rule) (*conditions.Vocabulary, error) {
			types := Vocabulary.Types()
			for i := range types {
				types[i].Reasons = nil // read again from table
			}
			return conditions.NewVocabulary(finopsv1.APIVersion, finopsv1.KindPriceBook, types, conditions.FromRules(table))
		},
		Sources: conditionstest.PackageSources(t),
	})
}
