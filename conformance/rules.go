package conformance

import (
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

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

// RulesFor lists, in the order of rules (a table as Rules returns it),
// the IDs of the rules that may write (typ, status, reason) on an object
// of kind.
func RulesFor(rules []conditions.Rule, kind, typ string, status metav1.ConditionStatus, reason string) []string {
	var out []string
	for _, r := range rules {
		if r.Kind != kind || !slices.Contains(r.Types, typ) {
			continue
		}
		if slices.ContainsFunc(r.Writes, func(w conditions.Reason) bool { return w.Status == status && w.Reason == reason }) {
			out = append(out, r.ID)
		}
	}
	return out
}
