package conditions_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
)

var widgetProbe = []conditions.Reason{
	{Status: metav1.ConditionFalse, Reason: "Down", Message: "nothing answered", Meaning: "Nothing answered.", Action: "Start it."},
	{Status: metav1.ConditionTrue, Reason: "OK", Meaning: "It answers.", Action: "Nothing."},
}

func widgetRules() []conditions.Rule {
	return []conditions.Rule{
		{ID: "widget/accepted/ok", Kind: "Widget", Types: []string{"Accepted"}, Sentence: "every check passes",
			Writes: []conditions.Reason{{Status: metav1.ConditionTrue, Reason: "OK", Meaning: "Taken.", Action: "Nothing."}}},
		{ID: "widget/accepted/invalid", Kind: "Widget", Types: []string{"Accepted"}, Sentence: "a field fails a check",
			Writes: []conditions.Reason{{Status: metav1.ConditionFalse, Reason: "Invalid", Meaning: "A field fails.", Action: "Fix it.", Terminal: true}}},
		{ID: "widget/reachable/probe", Kind: "Widget", Types: []string{"Reachable"}, Sentence: "the probe decides", Writes: widgetProbe},
		{ID: "widget/reachable/kept", Kind: "Widget", Types: []string{"Reachable"}, Sentence: "the condition is kept", Writes: widgetProbe},
	}
}

func widgetTypes() []conditions.Type {
	return []conditions.Type{{Name: "Accepted", Required: true}, {Name: "Reachable"}}
}

func TestFromRules_ReadsEachTypesReasonsFromTheRulesInOrder(t *testing.T) {
	v, err := conditions.NewVocabulary("example.dev/v1", "Widget", widgetTypes(), conditions.FromRules(widgetRules()))
	require.NoError(t, err)
	types := v.Types()
	require.Len(t, types, 2)
	var got [][]string
	for _, typ := range types {
		var rs []string
		for _, r := range typ.Reasons {
			rs = append(rs, string(r.Status)+"/"+r.Reason)
		}
		got = append(got, rs)
	}
	assert.Equal(t, [][]string{{"True/OK", "False/Invalid"}, {"False/Down", "True/OK"}}, got)
	r, ok := v.Lookup("Accepted", metav1.ConditionFalse, "Invalid")
	require.True(t, ok)
	assert.True(t, r.Terminal)
	assert.Equal(t, "Fix it.", r.Action)
	ids := []string{}
	for _, r := range v.Rules() {
		ids = append(ids, r.ID)
	}
	assert.Equal(t, []string{"widget/accepted/ok", "widget/accepted/invalid", "widget/reachable/probe", "widget/reachable/kept"}, ids)
}

func TestFromRules_RefusesATableThatDisagreesWithItself(t *testing.T) {
	cases := map[string]func([]conditions.Rule) []conditions.Rule{
		"same pair, other text": func(rs []conditions.Rule) []conditions.Rule {
			other := append([]conditions.Reason(nil), widgetProbe...)
			other[0].Action = "Restart it."
			rs[3].Writes = other
			return rs
		},
		"rule of another kind": func(rs []conditions.Rule) []conditions.Rule {
			rs[0].Kind = "Gadget"
			return rs
		},
		"type the kind lacks": func(rs []conditions.Rule) []conditions.Rule {
			rs[1].Types = []string{"Joined"}
			return rs
		},
		"bad status": func(rs []conditions.Rule) []conditions.Rule {
			rs[1].Writes = []conditions.Reason{{Status: "Maybe", Reason: "Invalid"}}
			return rs
		},
	}
	for name, spoil := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := conditions.NewVocabulary("example.dev/v1", "Widget", widgetTypes(), conditions.FromRules(spoil(widgetRules())))
			assert.Error(t, err)
		})
	}
}

func TestFromRules_LeavesTheCallersSlicesAlone(t *testing.T) {
	fixed := make([]conditions.Reason, 1, 2)
	fixed[0] = conditions.Reason{Status: metav1.ConditionTrue, Reason: "OK", Meaning: "Taken.", Action: "Nothing."}
	types := []conditions.Type{{Name: "Accepted", Reasons: fixed}, {Name: "Reachable"}}
	before := append([]conditions.Reason(nil), widgetProbe...)
	_, err := conditions.NewVocabulary("example.dev/v1", "Widget", types, conditions.FromRules(widgetRules()))
	require.NoError(t, err)
	assert.Len(t, types[0].Reasons, 1)
	assert.Zero(t, fixed[:2][1], "the spare capacity of a caller's slice is not written")
	assert.Equal(t, before, widgetProbe)
}

func TestVerdict_TakesTheFixedMessageWhenGivenNone(t *testing.T) {
	rules := widgetRules()
	v := rules[2].Verdict(0, "", 7)
	assert.Same(t, &rules[2], v.Rule)
	assert.Equal(t, metav1.Condition{Type: "Reachable", Status: metav1.ConditionFalse, Reason: "Down", Message: "nothing answered", ObservedGeneration: 7}, v.Condition("Reachable"))
	assert.Equal(t, "spec.size: negative", rules[1].Verdict(0, "spec.size: negative", 3).Message)
}

func TestRecorder_NilRecordsNothingAndAllocatesNothing(t *testing.T) {
	rules := widgetRules()
	var rec *conditions.Recorder
	allocs := testing.AllocsPerRun(100, func() {
		v := rules[0].Verdict(0, "", 1)
		rec.Decided("Accepted", "", v)
		if rec.On() {
			rec.Read("Accepted", conditions.ObjectRef{Kind: "Widget", Name: "w"}, conditions.F("metadata.generation", "1"))
		}
	})
	assert.Zero(t, allocs)
	assert.Nil(t, rec.Provenance())
}

func TestRecorder_KeepsTheRuleAndTheEvidenceOfEachType(t *testing.T) {
	rules := widgetRules()
	rec := &conditions.Recorder{}
	self := conditions.ObjectRef{Kind: "Widget", Namespace: "ns", Name: "w", Generation: 2}
	rec.Read("Accepted", self, conditions.F("spec.size", "-1"))
	rec.Decided("Accepted", "", rules[1].Verdict(0, "spec.size: negative", 2))
	rec.Read("Accepted", self, conditions.F("metadata.generation", "2"))
	rec.Decided("Reachable", "Accepted", rules[3].Verdict(1, "", 2))
	got := rec.Provenance()
	assert.Equal(t, []conditions.Provenance{
		{Type: "Accepted", Rule: "widget/accepted/invalid", Evidence: []conditions.Evidence{{Object: self, Facts: []conditions.Fact{{Field: "spec.size", Value: "-1"}, {Field: "metadata.generation", Value: "2"}}}}},
		{Type: "Reachable", Rule: "widget/reachable/kept", From: "Accepted"},
	}, got)
	assert.Nil(t, rec.Provenance(), "Provenance starts the recorder afresh")
}
