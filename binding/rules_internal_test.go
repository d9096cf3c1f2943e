package binding

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/conditions"
)

// tableProblems reports every part of a reason or rule that is missing
// from the Binding's declarations: a rule left empty in the table, an
// empty sentence, meaning or action, an Accepted rule outside the block
// acceptedVerdict reads, a Reason constant no rule writes, and a rule no
// code returns (outside its declaration and its table entry). srcs maps
// file names to Go source.
func tableProblems(table []conditions.Rule, srcs map[string]string) []string {
	var probs []string
	vocab, err := conditions.NewVocabulary(akv1.APIVersion, akv1.KindBinding, []conditions.Type{
		{Name: TypeAccepted, Required: true}, {Name: TypeBackendReachable}, {Name: TypeChannelJoined}, {Name: TypeReady, Required: true},
	}, conditions.FromRules(table))
	if err != nil {
		return []string{err.Error()}
	}
	probs = append(probs, conditions.CheckRules(table, []*conditions.Vocabulary{vocab})...)
	written := map[string]bool{}
	lastAccepted := -1
	for i, r := range table {
		if r.ID == "" {
			probs = append(probs, fmt.Sprintf("rule %d is declared but left out of the table", i))
			continue
		}
		if len(r.Types) == 1 && r.Types[0] == TypeAccepted {
			if i != lastAccepted+1 {
				probs = append(probs, fmt.Sprintf("rule %s decides Accepted outside the block acceptedVerdict reads", r.ID))
			}
			lastAccepted = i
		}
		if r.Types != nil && len(r.Writes) == 0 {
			probs = append(probs, fmt.Sprintf("rule %s writes nothing", r.ID))
		}
		for _, w := range r.Writes {
			written[w.Reason] = true
			if w.Meaning == "" || w.Action == "" {
				probs = append(probs, fmt.Sprintf("rule %s: %s %s lacks a meaning or an action", r.ID, w.Status, w.Reason))
			}
		}
	}
	if lastAccepted < 0 || table[lastAccepted].ID != "binding/accepted/rejected" {
		probs = append(probs, "the Accepted block does not end with binding/accepted/rejected, the reason of a finding no other rule names")
	}
	fset := token.NewFileSet()
	used := map[string]bool{}
	var names []string
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range srcs {
			if !yield(n) {
				return
			}
		}
	}) {
		f, err := parser.ParseFile(fset, name, srcs[name], 0)
		if err != nil {
			return append(probs, err.Error())
		}
		// A rule's name counts as returned when it appears outside its
		// declaration and outside the key of its table entry.
		keys := map[*ast.Ident]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok {
					keys[id] = true
				}
			case *ast.ValueSpec:
				typ, _ := n.Type.(*ast.Ident)
				for k, id := range n.Names {
					keys[id] = true
					switch {
					case typ != nil && typ.Name == "Reason" && k < len(n.Values):
						if lit, ok := n.Values[k].(*ast.BasicLit); ok && !written[strings.Trim(lit.Value, `"`)] {
							probs = append(probs, fmt.Sprintf("reason %s is declared but no rule writes it", id.Name))
						}
					case strings.HasPrefix(id.Name, "rule") && id.Name != "rules" && id.Name != "ruleIndex":
						names = append(names, id.Name)
					}
				}
			case *ast.Ident:
				if !keys[n] {
					used[n.Name] = true
				}
			}
			return true
		})
	}
	for _, n := range names {
		if !used[n] {
			probs = append(probs, fmt.Sprintf("rule %s is declared but no decision returns it", n))
		}
	}
	return probs
}

// bindingSources reads the package's Go files, tests left out.
func bindingSources(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = string(b)
	}
	return out
}

func TestRules_EveryPartOfEveryReasonIsDeclared(t *testing.T) {
	assert.Empty(t, tableProblems(rules[:], bindingSources(t)))
}

// A throwaway Accepted reason added to a copy of the table and of
// accepted.go (its constant, its rule and the code that returns it), with
// one part of it forgotten at a time: each omission is reported by
// tableProblems, so TestRules_EveryPartOfEveryReasonIsDeclared fails on
// it. (A forgotten regeneration of docs fails TestRulesDoc_NotStale,
// TestVocabularyDocs_NotStale and TestVocab_Golden in cmd/condengine; a
// forgotten constant or rule index does not compile.)
func TestRules_ForgettingAnyPartOfANewReasonFailsANamedTest(t *testing.T) {
	const constDecl = "\n\nconst ReasonThrowaway Reason = \"Throwaway\"\n\nconst ruleThrowaway = numRules\n"
	const firing = "\n\nvar _ = rules[ruleThrowaway]\n"
	newRule := conditions.Rule{ID: "binding/accepted/throwaway", Kind: akv1.KindBinding, Types: []string{TypeAccepted},
		Sentence: "a throwaway check fails", Writes: []conditions.Reason{{Status: sFalse, Reason: "Throwaway", Meaning: "It fails.", Action: "Fix it."}}}
	complete := func() ([]conditions.Rule, map[string]string) {
		srcs := bindingSources(t)
		srcs["accepted.go"] += constDecl + firing
		table := slices.Insert(slices.Clone(rules[:]), int(ruleAcceptedRejected), newRule)
		return table, srcs
	}
	table, srcs := complete()
	assert.Empty(t, tableProblems(table, srcs), "the complete throwaway reason is accepted")

	cases := map[string]func(table []conditions.Rule, srcs map[string]string) []conditions.Rule{
		"the rule left out of the table": func(table []conditions.Rule, _ map[string]string) []conditions.Rule {
			table[ruleAcceptedRejected] = conditions.Rule{}
			return table
		},
		"no sentence": func(table []conditions.Rule, _ map[string]string) []conditions.Rule {
			table[ruleAcceptedRejected].Sentence = ""
			return table
		},
		"no meaning": func(table []conditions.Rule, _ map[string]string) []conditions.Rule {
			table[ruleAcceptedRejected].Writes = []conditions.Reason{{Status: sFalse, Reason: "Throwaway", Action: "Fix it."}}
			return table
		},
		"no action": func(table []conditions.Rule, _ map[string]string) []conditions.Rule {
			table[ruleAcceptedRejected].Writes = []conditions.Reason{{Status: sFalse, Reason: "Throwaway", Meaning: "It fails."}}
			return table
		},
		"no reason written": func(table []conditions.Rule, _ map[string]string) []conditions.Rule {
			table[ruleAcceptedRejected].Writes = nil
			return table
		},
		"no code returns the rule": func(table []conditions.Rule, srcs map[string]string) []conditions.Rule {
			srcs["accepted.go"] = strings.TrimSuffix(srcs["accepted.go"], firing)
			return table
		},
		"the reason constant written by no rule": func(table []conditions.Rule, srcs map[string]string) []conditions.Rule {
			table[ruleAcceptedRejected].Writes[0].Reason = "Throwaway2"
			return table
		},
		"an Accepted rule after the Accepted block": func(table []conditions.Rule, _ map[string]string) []conditions.Rule {
			r := table[ruleAcceptedRejected]
			table = slices.Delete(table, int(ruleAcceptedRejected), int(ruleAcceptedRejected)+1)
			return slices.Insert(table, int(ruleBackendProbe), r)
		},
	}
	for name, spoil := range cases {
		t.Run(name, func(t *testing.T) {
			table, srcs := complete()
			table = spoil(table, srcs)
			assert.NotEmpty(t, tableProblems(table, srcs), "forgetting %s goes unnoticed", name)
		})
	}
}
