package pricebook

import (
	"testing"

	"github.com/condengine/condengine/conditions/conditionstest"
)

// The PriceBook's table passes the checks every kind's does. Its reasons
// are untyped strings, so the checks of Reason constants find none here.
func TestRules_EveryPartOfEveryReasonIsDeclared(t *testing.T) {
	conditionstest.CheckRuleTable(t, conditionstest.RuleTable{Rules: rules[:], Vocabulary: Vocabulary})
}
