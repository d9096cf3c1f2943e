package conformance

import (
	"bytes"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/manifest"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
)

// A rule's example (conditions.Rule.Example) becomes a corpus scenario,
// so that adding a rule is one edit in its kind's file: the scenario that
// shows the rule, which TestRules_EveryRuleDecidesSomeScenario asks for,
// and the snapshot that lets a conform run reach it are written from it.
// The first directive writes the rule scenarios; the second refreshes
// docs/conform-reference.md, whose message examples are read from the
// whole corpus, so it comes after.
//
//go:generate go test -run TestRuleScenarios_AreCurrent . -update
//go:generate go test -run TestConformReference_IsCurrent . -update

// ruleScenarioPrefix opens the name of every corpus file written from a
// rule's example; no hand-written file may use it.
const ruleScenarioPrefix = "rule-"

// ruleScenarioNow is the instant of a rule scenario whose example gives
// none: the one the project's generators draw snapshots at.
const ruleScenarioNow = "2026-11-30T10:00:00Z"

// ruleScenarios returns the corpus file of every rule of systems that
// has an example, by its path in the corpus (system/rule-<ID with / as
// ->.yaml).
func ruleScenarios(systems ...*system.System) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, sys := range systems {
		for _, r := range sys.Rules {
			if r.Example == "" {
				continue
			}
			p, text, err := ruleScenario(sys, r)
			if err != nil {
				return nil, err
			}
			out[p] = text
		}
	}
	return out, nil
}

// ruleScenarioPath is the path in a corpus of the scenario written from
// the example of rule id of sys.
func ruleScenarioPath(sys *system.System, id string) string {
	return path.Join(sys.Name, ruleScenarioPrefix+strings.ReplaceAll(id, "/", "-")+".yaml")
}

// ruleScenario writes rule r's example as a scenario file of sys: a
// comment saying where it comes from, the rule's ID and sentence as its
// name, the example as written, and an expectation read from what the
// rule declares it writes, never from running the engine, so that the
// engine is still checked against the rule: the object carries a
// condition of the rule's first type with its first write's status and
// reason (and message, when that write's message is fixed).
func ruleScenario(sys *system.System, r conditions.Rule) (string, []byte, error) {
	fail := func(format string, args ...any) (string, []byte, error) {
		return "", nil, fmt.Errorf("rule %s: example: "+format, append([]any{r.ID}, args...)...)
	}
	switch {
	case r.Kind == "" || !slices.Contains(sys.StatusKinds(), r.Kind):
		return fail("kind %q is not one system %s evaluates", r.Kind, sys.Name)
	case len(r.Types) == 0 || len(r.Writes) == 0:
		return fail("a rule that writes no condition of its own cannot show one")
	}
	body := dedent(r.Example)
	var out bytes.Buffer
	fmt.Fprintf(&out, "# Written by `go generate ./conformance` from the Example of rule\n# %s; edit the rule, not this file.\n", r.ID)
	fmt.Fprintf(&out, "name: %s\nsystem: %s\n", quote(r.ID+": "+r.Sentence), sys.Name)
	if !hasTopKey(body, "now") {
		fmt.Fprintf(&out, "now: %s\n", quote(ruleScenarioNow))
	}
	out.WriteString(body)
	f, err := scenario.Parse(append(slices.Clip(out.Bytes()), "expect: []\n"...))
	if err != nil {
		return fail("%v", err)
	}
	ns, name, ok := firstOfKind(f, r.Kind)
	if !ok {
		return fail("no object of kind %s", r.Kind)
	}
	w := r.Writes[0]
	fmt.Fprintf(&out, "expect:\n  - kind: %s\n", r.Kind)
	if ns != "" {
		fmt.Fprintf(&out, "    namespace: %s\n", quote(ns))
	}
	fmt.Fprintf(&out, "    name: %s\n    conditionsInclude:\n      - {\"type\": %s, \"status\": %s, \"reason\": %s",
		quote(name), quote(r.Types[0]), quote(string(w.Status)), quote(w.Reason))
	if w.Message != "" {
		fmt.Fprintf(&out, ", \"message\": %s", quote(w.Message))
	}
	out.WriteString("}\n")
	if _, err := scenario.Parse(out.Bytes()); err != nil {
		return fail("%v", err)
	}
	return ruleScenarioPath(sys, r.ID), out.Bytes(), nil
}

// firstOfKind is the namespace and name of f's first object of kind.
func firstOfKind(f *scenario.File, kind string) (string, string, bool) {
	for _, raw := range f.Objects {
		if h, err := manifest.ReadHeader(raw); err == nil && h.Kind == kind {
			return h.Metadata.Namespace, h.Metadata.Name, true
		}
	}
	return "", "", false
}

// dedent removes the indentation every non-blank line of s shares, so an
// example may be indented with the Go code around it, and ends s with one
// newline.
func dedent(s string) string {
	lines := strings.Split(s, "\n")
	indent := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t"))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	for i, l := range lines {
		if len(l) >= indent && indent > 0 {
			lines[i] = l[indent:]
		}
		lines[i] = strings.TrimRight(lines[i], " \t")
	}
	return strings.Trim(strings.Join(lines, "\n"), "\n") + "\n"
}

// hasTopKey reports whether the YAML text sets key at its top level.
func hasTopKey(text, key string) bool {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, key+":") {
			return true
		}
	}
	return false
}

// ruleExample is the scenario written from the i-th rule of sys with an
// example, counting in the order of their paths (ruleScenarioPath), as
// the corpus lists the files; nil when sys has fewer. Generate hands them
// out among the drawn snapshots, so a conform run reaches every rule with
// an example by construction. Only the one asked for is written.
func ruleExample(sys *system.System, i int) ([]byte, error) {
	var with []conditions.Rule
	for _, r := range sys.Rules {
		if r.Example != "" {
			with = append(with, r)
		}
	}
	if i < 0 || i >= len(with) {
		return nil, nil
	}
	slices.SortStableFunc(with, func(a, b conditions.Rule) int {
		return strings.Compare(ruleScenarioPath(sys, a.ID), ruleScenarioPath(sys, b.ID))
	})
	_, text, err := ruleScenario(sys, with[i])
	return text, err
}
