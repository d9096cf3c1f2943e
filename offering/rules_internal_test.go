package offering

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/conditions/conditionstest"
)

// ruleTable is the Offering's table as the shared checker reads it; the
// vocabulary reads it through byType.
var ruleTable = conditionstest.RuleTable{Rules: rules, Vocabulary: Vocabulary, Arrange: byType}

func TestRules_EveryPartOfEveryReasonIsDeclared(t *testing.T) {
	conditionstest.CheckRuleTable(t, ruleTable)
	conditionstest.CheckRuleSource(t, ruleTable)
}

// A throwaway check added to a copy of the table and of ready.go, with
// one part of it forgotten at a time: each omission fails
// TestRules_EveryPartOfEveryReasonIsDeclared. (A forgotten regeneration
// of the docs fails TestRulesDoc_NotStale, TestVocabularyDocs_NotStale
// in cmd/condengine and TestVocab_Golden in cmd/cli; a rule ID missing from the
// table fails TestRules_EveryRuleIDInCodeIsInTheTable in conformance; a
// forgotten constant or rule index does not compile.)
func TestRules_ForgettingAnyPartOfANewReasonFailsANamedTest(t *testing.T) {
	conditionstest.CheckForgetting(t, ruleTable, conditionstest.Throwaway{
		Rule: conditions.Rule{ID: "offering/checks/throwaway", Kind: finopsv1.KindOffering, Types: []string{TypeReady, TypePricingResolved},
			Sentence: "a throwaway check fails", Writes: []conditions.Reason{write(metav1.ConditionFalse, "Throwaway", "It fails.", "Fix it.")}},
		At:   int(rulePassed),
		File: "ready.go",
	}, nil)
}
