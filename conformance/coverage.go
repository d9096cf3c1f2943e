package conformance

import (
	"fmt"
	"slices"
	"strings"

	"github.com/condengine/condengine/conditions"
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

// covered reports whether every ID in ids (rules or decision outcomes)
// was reached at least n times.
func covered(reached map[string]int, ids []string, n int) bool {
	for _, id := range ids {
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

// ReachedDecisions lists the decision outcomes (system.System.Decisions)
// the scenario f of sys reaches, each once, sorted: for each object of a
// status kind, whether the host writes now and, if not, why; what it does
// with the kind's finalizer; whether it retries a held write.
func ReachedDecisions(sys *system.System, f *scenario.File) ([]string, error) {
	outs, err := sys.Run(f, false)
	if err != nil {
		return nil, err
	}
	return reachedDecisions(sys, outs), nil
}

// reachedDecisions is every decision outcome of outs, each once, sorted.
// The write is the answer's (writesNow); a reason not to write counts
// only where the runner gives one.
func reachedDecisions(sys *system.System, outs []scenario.Outcome) []string {
	var ids []string
	for _, o := range outs {
		k, ok := sys.Kind(o.Kind)
		if !ok || !k.Status {
			continue
		}
		write := writesNow(o)
		ids = append(ids, system.DecisionWrite(k.Kind, write))
		if !write && o.Skip != conditions.SkipNone {
			ids = append(ids, system.DecisionSkip(k.Kind, o.Skip))
		}
		if k.Finalizer != "" {
			ids = append(ids, system.DecisionFinalizer(k.Kind, o.Finalizer))
		}
		if !o.RetryAt.IsZero() {
			ids = append(ids, system.DecisionRetryAt(k.Kind))
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// SystemDecisions lists the decision outcomes a run of sys can reach: its
// Decisions less those it declares unreachable, in their order.
func SystemDecisions(sys *system.System) []string {
	var out []string
	for _, d := range sys.Decisions() {
		if _, ok := sys.UnreachableDecisions[d]; !ok {
			out = append(out, d)
		}
	}
	return out
}

// DecisionReport is the part of a run's report on decisions: how many
// snapshots reached each decision outcome of sys (per status kind: write
// true and false, each reason not to write, the finalizer's add, remove
// and keep, a retry), the outcomes never reached, and those no snapshot
// can reach with their reasons.
func DecisionReport(sys *system.System, reached map[string]int) string {
	var b strings.Builder
	all := SystemDecisions(sys)
	var missed []string
	for _, d := range all {
		if reached[d] == 0 {
			missed = append(missed, d)
		}
	}
	fmt.Fprintf(&b, "decisions reached: %d of %d\n", len(all)-len(missed), len(all))
	for _, d := range all {
		if n := reached[d]; n > 0 {
			fmt.Fprintf(&b, "  %-50s %d\n", d, n)
		}
	}
	if len(missed) > 0 {
		fmt.Fprintf(&b, "decisions never reached: %s\n", strings.Join(missed, ", "))
	}
	for _, d := range sys.Decisions() {
		if why, ok := sys.UnreachableDecisions[d]; ok {
			fmt.Fprintf(&b, "decision no snapshot can reach: %s (%s)\n", d, why)
		}
	}
	return b.String()
}
