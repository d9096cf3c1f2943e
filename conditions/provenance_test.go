package conditions

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

var widget = ObjectRef{Kind: "Widget", Namespace: "ns", Name: "w", UID: "u-w", Generation: 2}

func TestAttach_OneEntryPerConditionInItsOrder(t *testing.T) {
	v := testVocab(t)
	conds := []metav1.Condition{
		{Type: "Accepted", Status: metav1.ConditionTrue, Reason: "OK"},
		{Type: "example.com/Other", Status: metav1.ConditionTrue, Reason: "Theirs"},
		{Type: "Ready", Status: metav1.ConditionTrue, Reason: "OK"},
	}
	decided := []Provenance{{Type: "Ready", Rule: "widget/ready/ok"}, {Type: "Accepted", Rule: "widget/accepted/ok"}}
	got := v.Attach(conds, false, widget, decided)
	require.Len(t, got, 3)
	assert.Equal(t, "widget/accepted/ok", got[0].Rule)
	assert.Equal(t, ruleOtherWriter, got[1].Rule)
	assert.Equal(t, "example.com/Other", got[1].Type)
	assert.Equal(t, widget, got[1].Evidence[0].Object)
	assert.Equal(t, "widget/ready/ok", got[2].Rule)
}

func TestAttach_StaleSnapshotExplainsOursByTheGenerations(t *testing.T) {
	v := testVocab(t)
	conds := []metav1.Condition{
		{Type: "Accepted", Status: metav1.ConditionTrue, Reason: "OK", ObservedGeneration: 3},
		{Type: "example.com/Other", Status: metav1.ConditionTrue, Reason: "Theirs"},
	}
	got := v.Attach(conds, true, widget, []Provenance{{Type: "Accepted", Rule: "widget/accepted/ok"}})
	require.Len(t, got, 2)
	assert.Equal(t, ruleStaleSnapshot, got[0].Rule)
	assert.Equal(t, []Fact{{"metadata.generation", "2"}, {"status.conditions[Accepted].observedGeneration", "3"}}, got[0].Evidence[0].Facts)
	assert.Equal(t, ruleOtherWriter, got[1].Rule)
}

// A type of ours nothing decided keeps an empty rule, which the property
// tests report, rather than a made-up one.
func TestAttach_UndecidedTypeHasNoRule(t *testing.T) {
	v := testVocab(t)
	got := v.Attach([]metav1.Condition{{Type: "Synced", Status: metav1.ConditionTrue, Reason: "OK"}}, false, widget, nil)
	require.Len(t, got, 1)
	assert.Equal(t, "", got[0].Rule)
}

func TestProvenanceAdd_JoinsFactsOfOneObject(t *testing.T) {
	var p Provenance
	p.Add(widget, F("a", "1"))
	p.Add(ObjectRef{Kind: "Other", Name: "o"})
	p.Add(widget, F("b", "2"))
	require.Len(t, p.Evidence, 2)
	assert.Equal(t, []Fact{{"a", "1"}, {"b", "2"}}, p.Evidence[0].Facts)
}

func TestSortEvidence_KeepsTheDecidedObjectFirst(t *testing.T) {
	var p Provenance
	p.Add(ObjectRef{Kind: "Widget", Namespace: "z", Name: "self"})
	p.Add(ObjectRef{Kind: "Widget", Namespace: "b", Name: "x"})
	p.Add(ObjectRef{Kind: "Gadget", Namespace: "c", Name: "y"})
	p.Add(ObjectRef{Kind: "Widget", Namespace: "a", Name: "x"})
	sortEvidence(&p)
	var got []string
	for _, e := range p.Evidence {
		got = append(got, e.Object.String())
	}
	assert.Equal(t, []string{"Widget z/self", "Gadget c/y", "Widget a/x", "Widget b/x"}, got)
}

func TestFTime_UTCAndUnset(t *testing.T) {
	at := time.Date(2026, 11, 30, 11, 0, 0, 0, time.FixedZone("x", 3600))
	assert.Equal(t, "2026-11-30T10:00:00Z", FTime("t", at).Value)
	assert.Equal(t, "unset", FTime("t", time.Time{}).Value)
}
