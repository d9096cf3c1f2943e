package offering

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
)

// tableProblems reports every part of a reason or rule that is missing
// from the Offering's declarations: a rule left empty in the table, an
// ID repeated or not of the kind, an empty or multi-line sentence, a
// rule that writes nothing, a write without a meaning or an action, a
// Reason constant no rule writes or whose comment names no condition
// type, and a rule index no code uses (no decision returns the rule).
// The package's own files are read with extra, which maps more file
// names to Go source.
func tableProblems(table []conditions.Rule, extra map[string]string) []string {
	var probs []string
	types := []conditions.Type{{Name: TypeReady}, {Name: TypePricingResolved}, {Name: TypeDeleting}}
	if _, err := conditions.NewVocabulary(finopsv1.APIVersion, finopsv1.KindOffering, types, conditions.FromRules(byType(table))); err != nil {
		probs = append(probs, err.Error())
	}
	written := map[string]bool{}
	ids := map[string]bool{}
	for i, r := range table {
		if r.ID == "" {
			probs = append(probs, fmt.Sprintf("rule %d is declared but left out of the table", i))
			continue
		}
		if ids[r.ID] || !strings.HasPrefix(r.ID, "offering/") || r.ID != strings.ToLower(r.ID) {
			probs = append(probs, fmt.Sprintf("rule %s: an ID is offering/<type>/<name> in lower case, once", r.ID))
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
			if w.Meaning == "" || w.Action == "" {
				probs = append(probs, fmt.Sprintf("rule %s: %s %s lacks a meaning or an action", r.ID, w.Status, w.Reason))
			}
		}
	}
	fset := token.NewFileSet()
	own, err := filepath.Glob("*.go")
	if err != nil {
		return append(probs, err.Error())
	}
	var files []*ast.File
	for _, name := range own {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			return append(probs, err.Error())
		}
		files = append(files, f)
	}
	for _, name := range slices.Sorted(maps.Keys(extra)) {
		f, err := parser.ParseFile(fset, name, extra[name], parser.ParseComments)
		if err != nil {
			return append(probs, err.Error())
		}
		files = append(files, f)
	}
	declared := map[token.Pos]bool{} // rule indexes where declared or used as a table key
	used := map[string]int{}
	var names []string
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GenDecl:
				if n.Tok == token.CONST {
					probs = append(probs, reasonProblems(n, written)...)
				}
			case *ast.ValueSpec:
				for _, id := range n.Names {
					if isRuleIndex(id.Name) {
						names = append(names, id.Name)
						declared[id.Pos()] = true
					}
				}
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok {
					declared[id.Pos()] = true
				}
			case *ast.Ident:
				if !declared[n.Pos()] {
					used[n.Name]++
				}
			}
			return true
		})
	}
	for _, n := range names {
		if used[n] == 0 {
			probs = append(probs, fmt.Sprintf("rule %s is declared but no decision returns it", n))
		}
	}
	return probs
}

// isRuleIndex reports whether name is a rule's index constant.
func isRuleIndex(name string) bool {
	return len(name) > 4 && strings.HasPrefix(name, "rule") && name[4] >= 'A' && name[4] <= 'Z'
}

// reasonProblems checks the Reason constants of one const declaration:
// each is written by a rule and its comment names the condition types it
// goes with. A constant set from another package's is taken to carry its
// own name's text (ReasonValidationError is "ValidationError").
func reasonProblems(d *ast.GenDecl, written map[string]bool) []string {
	var probs []string
	for _, s := range d.Specs {
		vs := s.(*ast.ValueSpec)
		if typ, ok := vs.Type.(*ast.Ident); !ok || typ.Name != "Reason" {
			continue
		}
		for k, id := range vs.Names {
			text := strings.TrimPrefix(id.Name, "Reason")
			if k < len(vs.Values) {
				if lit, ok := vs.Values[k].(*ast.BasicLit); ok {
					text = strings.Trim(lit.Value, `"`)
				}
			}
			if !written[text] {
				probs = append(probs, fmt.Sprintf("reason %s is declared but no rule writes it", id.Name))
			}
			doc := vs.Doc.Text()
			if !strings.Contains(doc, "goes with") || !strings.Contains(doc, TypeReady) && !strings.Contains(doc, TypePricingResolved) && !strings.Contains(doc, TypeDeleting) {
				probs = append(probs, fmt.Sprintf("reason %s: its comment does not say which condition it goes with", id.Name))
			}
		}
	}
	return probs
}

func TestRules_EveryPartOfEveryReasonIsDeclared(t *testing.T) {
	assert.Empty(t, tableProblems(rules, nil))
}

// A throwaway check added to a copy of the table and in a new file, with
// one part of it forgotten at a time: each omission is reported by
// tableProblems, so TestRules_EveryPartOfEveryReasonIsDeclared fails on
// it. (A forgotten regeneration of the docs fails TestRulesDoc_NotStale,
// TestVocabularyDocs_NotStale and TestVocab_Golden in cmd/condengine; a
// rule ID missing from the table fails
// TestRules_EveryRuleIDInCodeIsInTheTable in conformance; a forgotten
// constant or rule index does not compile.)
func TestRules_ForgettingAnyPartOfANewReasonFailsANamedTest(t *testing.T) {
	const decl = "package offering\n\nimport \"github.com/condengine/condengine/conditions\"\n\nconst (\n\t// ReasonThrowaway goes with Ready and PricingResolved, False.\n\tReasonThrowaway Reason = \"Throwaway\"\n)\n\nconst ruleThrowaway = len(readyRules)\n"
	const firing = "\n\nfunc throwaway() conditions.Verdict { return readyRules[ruleThrowaway].Verdict(0, \"\", 0) }\n"
	newRule := conditions.Rule{ID: "offering/checks/throwaway", Kind: finopsv1.KindOffering, Types: []string{TypeReady, TypePricingResolved},
		Sentence: "a throwaway check fails", Writes: []conditions.Reason{{Status: metav1.ConditionFalse, Reason: "Throwaway", Meaning: "It fails.", Action: "Fix it."}}}
	at := int(rulePassed)
	complete := func() ([]conditions.Rule, map[string]string) {
		return slices.Insert(slices.Clone(rules), at, newRule), map[string]string{"throwaway.go": decl + firing}
	}
	table, srcs := complete()
	assert.Empty(t, tableProblems(table, srcs), "the complete throwaway reason is accepted")

	cases := map[string]func(table []conditions.Rule, srcs map[string]string){
		"the rule left out of the table": func(table []conditions.Rule, _ map[string]string) { table[at] = conditions.Rule{} },
		"no sentence":                    func(table []conditions.Rule, _ map[string]string) { table[at].Sentence = "" },
		"an ID of another kind":          func(table []conditions.Rule, _ map[string]string) { table[at].ID = "subscription/ready/throwaway" },
		"an ID used twice":               func(table []conditions.Rule, _ map[string]string) { table[at].ID = table[at+1].ID },
		"no meaning": func(table []conditions.Rule, _ map[string]string) {
			table[at].Writes = []conditions.Reason{{Status: metav1.ConditionFalse, Reason: "Throwaway", Action: "Fix it."}}
		},
		"no action": func(table []conditions.Rule, _ map[string]string) {
			table[at].Writes = []conditions.Reason{{Status: metav1.ConditionFalse, Reason: "Throwaway", Meaning: "It fails."}}
		},
		"no reason written": func(table []conditions.Rule, _ map[string]string) { table[at].Writes = nil },
		"the reason constant written by no rule": func(table []conditions.Rule, _ map[string]string) {
			table[at].Writes = []conditions.Reason{{Status: metav1.ConditionFalse, Reason: "Throwaway2", Meaning: "It fails.", Action: "Fix it."}}
		},
		"the same pair with other text": func(table []conditions.Rule, _ map[string]string) {
			table[at].Writes = []conditions.Reason{{Status: metav1.ConditionFalse, Reason: string(ReasonRequiredOfferingNotFound), Meaning: "Other.", Action: "Other."}}
		},
		"no code returns the rule": func(_ []conditions.Rule, srcs map[string]string) {
			srcs["throwaway.go"] = strings.TrimSuffix(srcs["throwaway.go"], firing)
		},
		"no comment on the reason": func(_ []conditions.Rule, srcs map[string]string) {
			srcs["throwaway.go"] = strings.Replace(srcs["throwaway.go"], "\t// ReasonThrowaway goes with Ready and PricingResolved, False.\n", "", 1)
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
