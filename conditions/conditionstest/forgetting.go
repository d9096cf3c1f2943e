package conditionstest

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
)

// Throwaway is a whole new reason for a kind, to be forgotten one part at
// a time by CheckForgetting: its rule and where it goes in the table.
// CheckForgetting adds to File the source a kind following the
// conventions of SourceProblems writes for it: the Reason constant
// ReasonThrowaway, commented with the conditions it goes with, the rule's
// index ruleThrowaway and a function returning the rule.
type Throwaway struct {
	// Rule is the new rule; it writes one reason, "Throwaway", not True.
	Rule conditions.Rule
	// At is where Rule goes in the table.
	At int
	// File is the package file the source is added to.
	File string
}

// source is the declarations of x's reason and rule index, and the
// function that returns the rule.
func (x Throwaway) source() (decl, returns string) {
	decl = fmt.Sprintf("const (\n\t// ReasonThrowaway goes with %s, %s.\n\tReasonThrowaway Reason = %q\n)\n\nconst ruleThrowaway = %d",
		strings.Join(x.Rule.Types, " and "), x.Rule.Writes[0].Status, x.Rule.Writes[0].Reason, x.At)
	return decl, "func throwaway() conditions.Verdict { return rules[ruleThrowaway].Verdict(0, \"\", 0) }"
}

// Spoil forgets one part of a new reason: it changes the table (and may
// return another) or the sources.
type Spoil func(table []conditions.Rule, srcs map[string]string) []conditions.Rule

// CheckForgetting adds x to a copy of k's table and of the package's
// sources (PackageSources), with the kind's vocabulary read again from
// the table as the kind reads it, and shows that RuleProblems and
// SourceProblems find nothing wrong with it; then that forgetting any one
// part of it (each of the common cases, then the kind's own in more) is
// found by one of them. So, for a kind whose tests call both
// CheckRuleTable and CheckRuleSource, forgetting a part of a new reason
// fails a test.
func CheckForgetting(t *testing.T, k RuleTable, x Throwaway, more map[string]Spoil) {
	t.Helper()
	sources := PackageSources(t)
	decl, returns := x.source()
	type draft struct {
		table RuleTable
		srcs  map[string]string
	}
	whole := func() draft {
		c := k
		c.Rules = slices.Insert(slices.Clone(k.Rules), x.At, x.Rule)
		c.Rules[x.At].Writes = slices.Clone(x.Rule.Writes)
		srcs := maps.Clone(sources)
		srcs[x.File] += "\n\n" + decl + "\n\n" + returns + "\n"
		return draft{c, srcs}
	}
	// problems checks a draft as the kind's tests would check the
	// package: its vocabulary is what the kind reads from the draft's
	// table, and a table it cannot read it from is a problem of its own
	// (the package's initialisation would fail).
	problems := func(d draft) []string {
		v, err := d.table.vocabulary(d.table.Rules)
		if err != nil {
			return []string{err.Error()}
		}
		d.table.Vocabulary = v
		return append(RuleProblems(d.table), SourceProblems(d.table, d.srcs)...)
	}
	if p := problems(whole()); len(p) > 0 {
		t.Fatalf("the whole throwaway reason is refused: %q", p)
	}
	other := 0
	if x.At == 0 {
		other = 1
	}
	cases := map[string]Spoil{
		"the rule left out of the table": func(r []conditions.Rule, _ map[string]string) []conditions.Rule {
			r[x.At] = conditions.Rule{}
			return r
		},
		"no sentence": func(r []conditions.Rule, _ map[string]string) []conditions.Rule { r[x.At].Sentence = ""; return r },
		"an ID of another kind": func(r []conditions.Rule, _ map[string]string) []conditions.Rule {
			r[x.At].ID = "other/x/throwaway"
			return r
		},
		"an ID used twice": func(r []conditions.Rule, _ map[string]string) []conditions.Rule {
			r[x.At].ID = r[other].ID
			return r
		},
		"no meaning": func(r []conditions.Rule, _ map[string]string) []conditions.Rule {
			r[x.At].Writes[0].Meaning = ""
			return r
		},
		"no action": func(r []conditions.Rule, _ map[string]string) []conditions.Rule {
			r[x.At].Writes[0].Action = ""
			return r
		},
		"no reason written": func(r []conditions.Rule, _ map[string]string) []conditions.Rule { r[x.At].Writes = nil; return r },
		"the reason constant written by no rule": func(r []conditions.Rule, _ map[string]string) []conditions.Rule {
			r[x.At].Writes[0].Reason = "Throwaway2"
			return r
		},
		"a pair of another rule with other text": func(r []conditions.Rule, _ map[string]string) []conditions.Rule {
			r[x.At].Writes = append(r[x.At].Writes, otherWrite(r, x))
			return r
		},
		"no code returns the rule": func(r []conditions.Rule, srcs map[string]string) []conditions.Rule {
			srcs[x.File] = strings.Replace(srcs[x.File], returns, "", 1)
			return r
		},
		"no comment on the reason": func(r []conditions.Rule, srcs map[string]string) []conditions.Rule {
			srcs[x.File] = strings.Replace(srcs[x.File], decl, uncommented(decl), 1)
			return r
		},
		"a rule table not joined into rules": func(r []conditions.Rule, srcs map[string]string) []conditions.Rule {
			srcs[x.File] += "\n\nvar throwawayRules = [...]conditions.Rule{}\n"
			return r
		},
	}
	for name, spoil := range more {
		cases[name] = spoil
	}
	for _, name := range slices.Sorted(maps.Keys(cases)) {
		t.Run(name, func(t *testing.T) {
			d := whole()
			d.table.Rules = cases[name](d.table.Rules, d.srcs)
			if len(problems(d)) == 0 {
				t.Errorf("forgetting %s goes unnoticed", name)
			}
		})
	}
}

// otherWrite is a pair another rule of x's first type writes, with other
// text: a second declaration of it that FromRules refuses.
func otherWrite(table []conditions.Rule, x Throwaway) conditions.Reason {
	for i, r := range table {
		if i == x.At || !slices.Contains(r.Types, x.Rule.Types[0]) {
			continue
		}
		for _, w := range r.Writes {
			if w.Status != metav1.ConditionTrue {
				w.Meaning += " Other."
				return w
			}
		}
	}
	return conditions.Reason{}
}

// uncommented is src without its comment lines.
func uncommented(src string) string {
	var kept []string
	for _, l := range strings.Split(src, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "//") {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, "\n")
}
