package pricebook

import (
	"testing"

	"github.com/condengine/condengine/conditions/conditionstest"
)

// The PriceBook's table passes the checks every kind's does, its source
// included (its Reason constants are untyped strings).
func TestRules_EveryPartOfEveryReasonIsDeclared(t *testing.T) {
	table := conditionstest.RuleTable{Rules: rules[:], Vocabulary: Vocabulary}
	conditionstest.CheckRuleTable(t, table)
	conditionstest.CheckRuleSource(t, table)
}
