package conformance

import (
	"fmt"
	"slices"
	"strings"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/scenario"
)

// Unreachable lists the rules of Rules that no snapshot can reach, each
// with the reason. A coverage report names them apart from the rules a
// run merely missed.
func Unreachable() map[string]string {
	return map[string]string{
		"binding/accepted/rejected": "every finding the broker makes has a named reason; the rule is the vocabulary's fallback",
	}
}

// rarelyDrawn says why a reachable rule may be missed by a run of the
// default length: the state it needs is several generated facts at once.
var rarelyDrawn = map[string]string{
	"subscription/active/requirement-lost":   "needs an active Subscription whose required Offering loses its last active provider in the family; the generators rarely draw that family (try --until-coverage 1)",
	"subscription/active/parent-deactivated": "needs an active child whose parent ended under the Deactivate policy; about one snapshot in 300 (try --until-coverage 1)",
}

// ReachedRules lists the IDs of the rules that decide some condition of
// the scenario f, each once, sorted.
func ReachedRules(f *scenario.File) ([]string, error) {
	var provs []conditions.Provenance
	switch f.System {
	case "binding":
		s, err := BindingSnapshot(f)
		if err != nil {
			return nil, err
		}
		res, err := binding.Explain(s)
		if err != nil {
			return nil, err
		}
		for _, r := range res.Bindings {
			provs = append(provs, r.Provenance...)
		}
	case "finops":
		s, err := FinOpsSnapshot(f)
		if err != nil {
			return nil, err
		}
		r, err := finops.Explain(s)
		if err != nil {
			return nil, err
		}
		for _, o := range r.PriceBooks.Books {
			provs = append(provs, o.Provenance...)
		}
		for _, o := range r.Offerings.Offerings {
			provs = append(provs, o.Provenance...)
		}
		for _, o := range r.Subscriptions.Subscriptions {
			provs = append(provs, o.Provenance...)
		}
	default:
		return nil, fmt.Errorf("system %q has no rules", f.System)
	}
	var ids []string
	for _, p := range provs {
		ids = append(ids, p.Rule)
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}

// SystemRules lists the rules a run of system can reach: the shared
// rules and those of the system's kinds, less Unreachable, in the
// table's order.
func SystemRules(system string) []string {
	skip := Unreachable()
	var out []string
	for _, id := range systemRuleIDs(system) {
		if _, ok := skip[id]; !ok {
			out = append(out, id)
		}
	}
	return out
}

// covered reports whether every rule in rules was reached at least n
// times.
func covered(reached map[string]int, rules []string, n int) bool {
	for _, id := range rules {
		if reached[id] < n {
			return false
		}
	}
	return true
}

// CoverageReport is the part of a run's report on rules: how many
// snapshots reached each rule of the system, the rules never reached,
// and the unreachable ones with their reasons.
func CoverageReport(system string, reached map[string]int) string {
	var b strings.Builder
	rules := SystemRules(system)
	var missed []string
	hit := 0
	for _, id := range rules {
		if reached[id] == 0 {
			missed = append(missed, id)
		} else {
			hit++
		}
	}
	fmt.Fprintf(&b, "rules reached: %d of %d\n", hit, len(rules))
	for _, id := range rules {
		if n := reached[id]; n > 0 {
			fmt.Fprintf(&b, "  %-50s %d\n", id, n)
		}
	}
	if len(missed) > 0 {
		fmt.Fprintf(&b, "rules never reached: %s\n", strings.Join(missed, ", "))
		for _, id := range missed {
			if why, ok := rarelyDrawn[id]; ok {
				fmt.Fprintf(&b, "  %s: %s\n", id, why)
			}
		}
	}
	un := Unreachable()
	var ids []string
	for id := range un {
		if slices.Contains(systemRuleIDs(system), id) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		fmt.Fprintf(&b, "rule no snapshot can reach: %s (%s)\n", id, un[id])
	}
	return b.String()
}

// systemRuleIDs is every rule of Rules a system's kinds declare, the
// unreachable ones included: the shared rules, then the Binding's for
// binding and the others for finops.
func systemRuleIDs(system string) []string {
	var out []string
	for _, r := range Rules() {
		shared, isBinding := strings.HasPrefix(r.ID, "any/"), strings.HasPrefix(r.ID, "binding/")
		if shared || (system == "binding") == isBinding {
			out = append(out, r.ID)
		}
	}
	return out
}
