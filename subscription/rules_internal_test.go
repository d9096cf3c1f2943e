package subscription

import (
	"testing"

	"github.com/condengine/condengine/conditions/conditionstest"
)

// ruleTable is the Subscription's table as the shared checker reads it.
var ruleTable = conditionstest.RuleTable{Rules: rules, Vocabulary: Vocabulary, TrueNeedsNoAction: true}

func TestRules_EveryPartOfEveryReasonIsDeclared(t *testing.T) {
	conditionstest.CheckRuleTable(t, ruleTable)
	conditionstest.CheckRuleSource(t, ruleTable)
}

// A throwaway reason added to a copy of the table and of gates.go, with
// one part of it forgotten at a time: each omission fails
// TestRules_EveryPartOfEveryReasonIsDeclared. (A forgotten regeneration
// of docs fails TestRulesDoc_NotStale, TestVocabularyDocs_NotStale and
// TestVocab_Golden in cmd/condengine; a forgotten constant or rule index
// does not compile.)
func TestRules_ForgettingAnyPartOfANewReasonFailsANamedTest(t *testing.T) {
	conditionstest.CheckForgetting(t, ruleTable, conditionstest.Throwaway{
		Rule: rule(TypeReady, "subscription/ready/throwaway", "a throwaway check fails",
			write(cFalse, "Throwaway", "", "It fails.", "Fix it.")),
		At:   len(gateRules),
		File: "gates.go",
	}, nil)
}
