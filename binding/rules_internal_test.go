package binding

import (
	"fmt"
	"slices"
	"testing"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/conditions/conditionstest"
)

// ruleTable is the Binding's table as the shared checker reads it, with
// the one order only the Binding keeps: the Accepted rules are one block,
// the block acceptedVerdict reads, and it ends with
// binding/accepted/rejected, the reason of a finding no other rule names.
var ruleTable = conditionstest.RuleTable{Rules: rules[:], Vocabulary: Vocabulary, More: acceptedBlockProblems}

// acceptedBlockProblems reports an Accepted rule outside the block
// acceptedVerdict reads, and a block that does not end with the rule of
// a refusal no other rule names.
func acceptedBlockProblems(table []conditions.Rule) []string {
	var probs []string
	last := -1
	for i, r := range table {
		if len(r.Types) == 1 && r.Types[0] == TypeAccepted {
			if i != last+1 {
				probs = append(probs, fmt.Sprintf("rule %s decides Accepted outside the block acceptedVerdict reads", r.ID))
			}
			last = i
		}
	}
	if last < 0 || table[last].ID != "binding/accepted/rejected" {
		probs = append(probs, "the Accepted block does not end with binding/accepted/rejected, the reason of a finding no other rule names")
	}
	return probs
}

func TestRules_EveryPartOfEveryReasonIsDeclared(t *testing.T) {
	conditionstest.CheckRuleTable(t, ruleTable)
	conditionstest.CheckRuleSource(t, ruleTable)
}

// A throwaway Accepted reason added to a copy of the table and of
// accepted.go, with one part of it forgotten at a time: each omission
// fails TestRules_EveryPartOfEveryReasonIsDeclared. (A forgotten
// regeneration of docs fails TestRulesDoc_NotStale,
// TestVocabularyDocs_NotStale in cmd/condengine and TestVocab_Golden in cmd/cli; a
// forgotten constant or rule index does not compile.)
func TestRules_ForgettingAnyPartOfANewReasonFailsANamedTest(t *testing.T) {
	at := int(ruleAcceptedRejected)
	conditionstest.CheckForgetting(t, ruleTable, conditionstest.Throwaway{
		Rule: rule("binding/accepted/throwaway", TypeAccepted, "a throwaway check fails",
			write(sFalse, "Throwaway", "It fails.", "Fix it.")),
		At:   at,
		File: "accepted.go",
	}, map[string]conditionstest.Spoil{
		"an Accepted rule after the Accepted block": func(table []conditions.Rule, _ map[string]string) []conditions.Rule {
			r := table[at]
			table = slices.Delete(table, at, at+1)
			return slices.Insert(table, int(ruleBackendProbe), r)
		},
	})
}
