package explain_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/explain"
	"github.com/condengine/condengine/scenario"
)

// Every outcome the runner explained is an object, in the outcomes'
// order, each condition with its decision; one it answered nothing for
// is left out, and one with no condition computed is kept, empty.
func TestFromOutcomes_EveryExplainedOutcomeInOrder(t *testing.T) {
	ready := []metav1.Condition{cond("Ready", "True", "OK")}
	prov := []conditions.Provenance{{Type: "Ready", Rule: "r/ready"}}
	outs := []scenario.Outcome{
		{Kind: "Database", Namespace: "z", Name: "db2", Conditions: []metav1.Condition{cond("Ready", "False", "Old")}, Computed: ready, Provenance: prov},
		{Kind: "Database", Namespace: "a", Name: "other-owner", Conditions: ready},
		{Kind: "Backup", Namespace: "b", Name: "nightly"},
		{Kind: "Database", Namespace: "b", Name: "db1", Computed: ready},
		{Kind: "Database", Namespace: "c", Name: "new", Computed: []metav1.Condition{}},
	}
	got := explain.FromOutcomes(outs, map[string]string{"r/ready": "ready sentence"})
	decided := []explain.Condition{{Type: "Ready", Status: "True", Reason: "OK", ObservedGeneration: 2,
		Decision: explain.Decision{Rule: "r/ready", Sentence: "ready sentence"}}}
	undecided := []explain.Condition{{Type: "Ready", Status: "True", Reason: "OK", ObservedGeneration: 2}}
	want := []explain.Object{
		{Kind: "Database", Namespace: "z", Name: "db2", Conditions: decided},
		{Kind: "Database", Namespace: "b", Name: "db1", Conditions: undecided},
		{Kind: "Database", Namespace: "c", Name: "new", Conditions: []explain.Condition{}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestFromOutcomes_Empty(t *testing.T) {
	if got := explain.FromOutcomes(nil, nil); len(got) != 0 {
		t.Fatalf("%+v", got)
	}
}
