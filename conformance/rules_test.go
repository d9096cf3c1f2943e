package conformance_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions/conditionstest"
	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/vocab"
)

func TestRules_TableIsWellFormed(t *testing.T) {
	for _, p := range conditionstest.CheckRules(conformance.Rules(conformance.SeedSystems()...), conformance.Vocabularies(conformance.SeedSystems()...)) {
		t.Error(p)
	}
}

// Every (type, status, reason) a kind may carry is written by at least
// one rule, so every reason's row in docs/vocabulary names its rules.
func TestRules_EveryReasonHasARule(t *testing.T) {
	rules := conformance.Rules(conformance.SeedSystems()...)
	for _, v := range conformance.Vocabularies(conformance.SeedSystems()...) {
		for _, typ := range v.Types() {
			for _, r := range typ.Reasons {
				if len(vocab.RulesFor(rules, v.Kind(), typ.Name, r.Status, r.Reason)) == 0 {
					t.Errorf("%s %s=%s %s: no rule writes it", v.Kind(), typ.Name, r.Status, r.Reason)
				}
			}
		}
	}
}

// RulesFor names the rules of the kind and type that write the pair, in
// the order of Rules; another status or another kind names none.
func TestRulesFor_ListsRulesOfThePairInTableOrder(t *testing.T) {
	rules := conformance.Rules(conformance.SeedSystems()...)
	assert.Equal(t, []string{"subscription/costs-resolved/collection-run", "subscription/costs-resolved/kept"},
		vocab.RulesFor(rules, "Subscription", "CostsResolved", metav1.ConditionTrue, "FromDB"))
	assert.Empty(t, vocab.RulesFor(rules, "Subscription", "CostsResolved", metav1.ConditionFalse, "FromDB"))
	assert.Empty(t, vocab.RulesFor(rules, "Offering", "CostsResolved", metav1.ConditionTrue, "FromDB"))
	assert.Empty(t, vocab.RulesFor(rules, "Subscription", "Ready", metav1.ConditionTrue, "FromDB"))

	pos := map[string]int{}
	for i, r := range rules {
		pos[r.ID] = i
	}
	for _, v := range conformance.Vocabularies(conformance.SeedSystems()...) {
		for _, typ := range v.Types() {
			for _, r := range typ.Reasons {
				got := vocab.RulesFor(rules, v.Kind(), typ.Name, r.Status, r.Reason)
				if !slices.IsSortedFunc(got, func(a, b string) int { return pos[a] - pos[b] }) {
					t.Errorf("%s %s=%s %s: %v is not in table order", v.Kind(), typ.Name, r.Status, r.Reason, got)
				}
			}
		}
	}
}

// ruleLiteral is what a rule ID looks like in source.
var ruleLiteral = regexp.MustCompile(`^(any|binding|pricebook|offering|subscription)/[a-z0-9-]+(/[a-z0-9-]+)?$`)

// A rule ID written in an evaluator's code is in the table: the test reads
// every string literal of the engine's packages.
func TestRules_EveryRuleIDInCodeIsInTheTable(t *testing.T) {
	table := map[string]bool{}
	for _, r := range conformance.Rules(conformance.SeedSystems()...) {
		table[r.ID] = true
	}
	found := 0
	for _, dir := range []string{"conditions", "binding", "pricebook", "offering", "subscription", "finops"} {
		fset := token.NewFileSet()
		files, err := filepath.Glob(filepath.Join("..", dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil || !ruleLiteral.MatchString(s) {
					return true
				}
				found++
				if !table[s] {
					t.Errorf("%s: rule ID %q is not in the rule table", fset.Position(lit.Pos()), s)
				}
				return true
			})
		}
	}
	if found < len(table) {
		t.Errorf("found %d rule IDs in code, fewer than the %d of the table: the scan misses files", found, len(table))
	}
}
