package conformance

import (
	"fmt"
	"slices"
	"strings"

	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
)

// ReachedRules lists the IDs of the rules that decide some condition of
// the scenario f of sys, each once, sorted: the rules its outcomes'
// provenance names when sys runs it with explanation.
func ReachedRules(sys *system.System, f *scenario.File) ([]string, error) {
	outs, err := sys.Run(f, true)
	if err != nil {
		return nil, err
	}
	return reachedRules(outs), nil
}

// reachedRules is every rule the outcomes' provenance names, each once,
// sorted.
func reachedRules(outs []scenario.Outcome) []string {
	var ids []string
	for _, o := range outs {
		for _, p := range o.Provenance {
			ids = append(ids, p.Rule)
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// SystemRules lists the rules a run of sys can reach: the shared rules
// and the system's own, less those it declares unreachable, in the
// table's order (Rules).
func SystemRules(sys *system.System) []string {
	var out []string
	for _, id := range systemRuleIDs(sys) {
		if _, ok := sys.Unreachable[id]; !ok {
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
// snapshots reached each rule of sys, the rules never reached (with why,
// for those the system says a run may miss), and the unreachable ones
// with their reasons.
func CoverageReport(sys *system.System, reached map[string]int) string {
	var b strings.Builder
	rules := SystemRules(sys)
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
			if why, ok := sys.Rare[id]; ok {
				fmt.Fprintf(&b, "  %s: %s\n", id, why)
			}
		}
	}
	all := systemRuleIDs(sys)
	var ids []string
	for id := range sys.Unreachable {
		if slices.Contains(all, id) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		fmt.Fprintf(&b, "rule no snapshot can reach: %s (%s)\n", id, sys.Unreachable[id])
	}
	return b.String()
}

// systemRuleIDs is every rule of Rules(sys), the unreachable ones
// included: the shared rules, then the system's own.
func systemRuleIDs(sys *system.System) []string {
	var out []string
	for _, r := range Rules(sys) {
		out = append(out, r.ID)
	}
	return out
}
