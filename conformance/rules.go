package conformance

import (
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/system"
)

// Rules returns the rule table of systems: the rules every kind shares
// (conditions.SharedRules), then each system's own, in the order given
// (for the seed systems: the Binding's, then the PriceBook's, the
// Offering's and the Subscription's). Every rule ID a Provenance of
// these systems carries is in it; docs/rules.md and the Rules column of
// docs/vocabulary are generated from the seed systems' table. The slice
// is new on each call.
func Rules(systems ...*system.System) []conditions.Rule {
	out := conditions.SharedRules()
	for _, s := range systems {
		out = append(out, s.Rules...)
	}
	return out
}
