package conformance

import (
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/offering"
	"github.com/condengine/condengine/pricebook"
	"github.com/condengine/condengine/subscription"
)

// Rules returns the one rule table of the module: the rules every kind
// shares, then each kind's, in the order of Vocabularies. Every rule ID a
// Provenance carries is in it; docs/rules.md and the Rules column of
// docs/vocabulary are generated from it. The slice is new on each call.
func Rules() []conditions.Rule {
	var out []conditions.Rule
	out = append(out, conditions.SharedRules()...)
	out = append(out, binding.Rules()...)
	out = append(out, pricebook.Rules()...)
	out = append(out, offering.Rules()...)
	out = append(out, subscription.Rules()...)
	return out
}

// RulesFor lists, in the order of Rules, the IDs of the rules that may
// write (typ, status, reason) on an object of kind.
func RulesFor(kind, typ string, status metav1.ConditionStatus, reason string) []string {
	var out []string
	for _, r := range Rules() {
		if r.Kind != kind || !slices.Contains(r.Types, typ) {
			continue
		}
		if slices.ContainsFunc(r.Writes, func(w conditions.Reason) bool { return w.Status == status && w.Reason == reason }) {
			out = append(out, r.ID)
		}
	}
	return out
}
