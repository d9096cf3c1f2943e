package subscription

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
)

// tableProblems reports every part of a reason or rule that is missing
// from the Subscription's declarations: a rule left empty in the table,
// an ID used twice or not of the kind, an empty sentence, meaning or (for
// a write that is not True) action, a Reason constant no rule writes, a
// rule no function returns, and a rule table the concatenation in
// vocabulary.go leaves out. srcs maps file names to Go source.
func tableProblems(table []conditions.Rule, srcs map[string]string) []string {
	var probs []string
	if _, err := conditions.NewVocabulary(finopsv1.APIVersion, finopsv1.KindSubscription, condTypes, conditions.FromRules(table)); err != nil {
		probs = append(probs, err.Error())
	}
	written := map[string]bool{}
	ids := map[string]bool{}
	for i, r := range table {
		if r.ID == "" {
			probs = append(probs, fmt.Sprintf("rule %d is declared but left out of the table", i))
			continue
		}
		if ids[r.ID] || !strings.HasPrefix(r.ID, "subscription/") || r.ID != strings.ToLower(r.ID) {
			probs = append(probs, fmt.Sprintf("rule %s: an ID is subscription/<type>/<name> in lower case, used once", r.ID))
		}
		ids[r.ID] = true
		if r.Sentence == "" || strings.ContainsAny(r.Sentence, "\r\n") {
			probs = append(probs, fmt.Sprintf("rule %s: the sentence must be one non-empty line", r.ID))
		}
		if len(r.Writes) == 0 {
			probs = append(probs, fmt.Sprintf("rule %s writes nothing", r.ID))
		}
		for _, w := range r.Writes {
			written[w.Reason] = true
			if w.Meaning == "" || (w.Status != cTrue && w.Action == "") {
				probs = append(probs, fmt.Sprintf("rule %s: %s %s lacks a meaning or an action", r.ID, w.Status, w.Reason))
			}
		}
	}

	fset := token.NewFileSet()
	var ruleNames, tables []string
	used := map[string]bool{}
	concat := map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(srcs)) {
		f, err := parser.ParseFile(fset, name, srcs[name], 0)
		if err != nil {
			return append(probs, err.Error())
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Body != nil {
					ast.Inspect(d.Body, func(n ast.Node) bool {
						if id, ok := n.(*ast.Ident); ok {
							used[id.Name] = true
						}
						return true
					})
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					vs, ok := spec.(*ast.ValueSpec)
					if !ok {
						continue
					}
					for k, id := range vs.Names {
						switch {
						case d.Tok == token.CONST && isIdent(vs.Type, "Reason"):
							reason := strings.TrimPrefix(id.Name, "Reason")
							if lit, ok := valueAt(vs, k).(*ast.BasicLit); ok && strings.Trim(lit.Value, `"`) != reason {
								probs = append(probs, fmt.Sprintf("reason %s is not named after its value %s", id.Name, lit.Value))
							}
							if !written[reason] {
								probs = append(probs, fmt.Sprintf("reason %s is declared but no rule writes it", id.Name))
							}
						case d.Tok == token.CONST && strings.HasPrefix(id.Name, "rule"):
							ruleNames = append(ruleNames, id.Name)
						case d.Tok == token.VAR && isRuleTable(valueAt(vs, k)):
							tables = append(tables, id.Name)
						case d.Tok == token.VAR && id.Name == "rules":
							ast.Inspect(valueAt(vs, k), func(n ast.Node) bool {
								if id, ok := n.(*ast.Ident); ok {
									concat[id.Name] = true
								}
								return true
							})
						}
					}
				}
			}
		}
	}
	for _, n := range ruleNames {
		if !used[n] {
			probs = append(probs, fmt.Sprintf("rule %s is declared but no decision returns it", n))
		}
	}
	for _, n := range tables {
		if !concat[n] {
			probs = append(probs, fmt.Sprintf("rule table %s is not put together into rules (vocabulary.go)", n))
		}
	}
	return probs
}

func valueAt(vs *ast.ValueSpec, k int) ast.Expr {
	if k < len(vs.Values) {
		return vs.Values[k]
	}
	return nil
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// isRuleTable reports whether e is an array literal of conditions.Rule.
func isRuleTable(e ast.Expr) bool {
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return false
	}
	arr, ok := lit.Type.(*ast.ArrayType)
	if !ok {
		return false
	}
	sel, ok := arr.Elt.(*ast.SelectorExpr)
	return ok && isIdent(sel.X, "conditions") && sel.Sel.Name == "Rule"
}

// packageSources reads the Go files the package builds from.
func packageSources(t *testing.T) map[string]string {
	t.Helper()
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	out := make(map[string]string, len(pkg.GoFiles))
	for _, f := range pkg.GoFiles {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = string(b)
	}
	return out
}

func TestRules_EveryPartOfEveryReasonIsDeclared(t *testing.T) {
	assert.Empty(t, tableProblems(rules, packageSources(t)))
}

// A throwaway reason added to a copy of the table and of gates.go, with
// one part of it forgotten at a time: each omission is reported by
// tableProblems, so TestRules_EveryPartOfEveryReasonIsDeclared fails on
// it. (A forgotten regeneration of docs fails TestRulesDoc_NotStale,
// TestVocabularyDocs_NotStale and TestVocab_Golden in cmd/condengine; a
// forgotten constant or rule index does not compile.)
func TestRules_ForgettingAnyPartOfANewReasonFailsANamedTest(t *testing.T) {
	const decl = "\n\nconst ReasonThrowaway Reason = \"Throwaway\"\n\nconst ruleThrowaway = len(gateRules)\n"
	const firing = "\n\nfunc throwaway(gen int64) conditions.Verdict { return gateRules[ruleThrowaway].Verdict(0, \"\", gen) }\n"
	at := len(gateRules)
	newRule := rule(TypeReady, "subscription/ready/throwaway", "a throwaway check fails",
		write(cFalse, "Throwaway", "", "It fails.", "Fix it."))
	complete := func() ([]conditions.Rule, map[string]string) {
		srcs := packageSources(t)
		srcs["gates.go"] += decl + firing
		return slices.Insert(slices.Clone(rules), at, newRule), srcs
	}
	table, srcs := complete()
	assert.Empty(t, tableProblems(table, srcs), "the complete throwaway reason is accepted")

	cases := map[string]func(table []conditions.Rule, srcs map[string]string){
		"the rule left out of the table": func(table []conditions.Rule, _ map[string]string) { table[at] = conditions.Rule{} },
		"an ID used twice":               func(table []conditions.Rule, _ map[string]string) { table[at].ID = table[0].ID },
		"no sentence":                    func(table []conditions.Rule, _ map[string]string) { table[at].Sentence = "" },
		"no meaning": func(table []conditions.Rule, _ map[string]string) {
			table[at].Writes = []conditions.Reason{write(cFalse, "Throwaway", "", "", "Fix it.")}
		},
		"no action": func(table []conditions.Rule, _ map[string]string) {
			table[at].Writes = []conditions.Reason{write(cFalse, "Throwaway", "", "It fails.", "")}
		},
		"no reason written": func(table []conditions.Rule, _ map[string]string) { table[at].Writes = nil },
		"the reason constant written by no rule": func(table []conditions.Rule, _ map[string]string) {
			table[at].Writes = []conditions.Reason{write(cFalse, "Throwaway2", "", "It fails.", "Fix it.")}
		},
		"the same pair with other text": func(table []conditions.Rule, _ map[string]string) {
			table[at].Writes = []conditions.Reason{write(cFalse, ReasonOfferingNotFound, "", "It fails.", "Fix it."),
				write(cFalse, "Throwaway", "", "It fails.", "Fix it.")}
		},
		"no code returns the rule": func(_ []conditions.Rule, srcs map[string]string) {
			srcs["gates.go"] = strings.TrimSuffix(srcs["gates.go"], firing)
		},
		"a new rule table not put together into rules": func(_ []conditions.Rule, srcs map[string]string) {
			srcs["gates.go"] += "\n\nvar throwawayRules = [...]conditions.Rule{}\n"
		},
	}
	for name, spoil := range cases {
		t.Run(name, func(t *testing.T) {
			table, srcs := complete()
			spoil(table, srcs)
			assert.NotEmpty(t, tableProblems(table, srcs), "forgetting %s goes unnoticed", name)
		})
	}
}
