package dbsystem_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/conditions/conditionstest"
	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/examples/database/dbsystem"
	"github.com/condengine/condengine/system"
)

// The value keeps the contract: names, kinds held to the embedded CRD,
// rules that write only pairs of the vocabulary.
func TestSystem_Validates(t *testing.T) {
	if err := system.Validate(dbsystem.System()); err != nil {
		t.Fatal(err)
	}
}

// The rule table and the vocabulary agree, and each write says what it
// means and what to do. A table with an orphan reason (one the
// vocabulary lists and no rule writes) is refused.
func TestRuleTable(t *testing.T) {
	conditionstest.CheckRuleTable(t, conditionstest.RuleTable{Rules: dbsystem.Rules(), Vocabulary: dbsystem.Vocabulary})

	types := dbsystem.Vocabulary.Types()
	types[1].Reasons = append(slices.Clone(types[1].Reasons), conditions.Reason{Status: metav1.ConditionFalse, Reason: "Throttled",
		Meaning: "m", Action: "a"})
	orphan := conditions.MustVocabulary(dbsystem.Vocabulary.APIVersion(), dbsystem.Vocabulary.Kind(), types)
	problems := conditionstest.RuleProblems(conditionstest.RuleTable{Rules: dbsystem.Rules(), Vocabulary: orphan})
	if !slices.ContainsFunc(problems, func(p string) bool { return strings.Contains(p, "Throttled") }) {
		t.Errorf("an orphan reason passed the rule table check: %q", problems)
	}
}

// The scenario files hold: each is one rule or decision at work.
func TestScenarios(t *testing.T) {
	conformance.TestFS(t, system.Runners(dbsystem.System()), os.DirFS("testdata/scenarios"))
}
