package check

import (
	"strings"
	"testing"
	"time"

	"github.com/condengine/condengine/conditions"
	"github.com/stretchr/testify/assert"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

var (
	at    = metav1.NewTime(time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC))
	vocab = conditions.MustVocabulary("example.dev/v1", "Widget", []conditions.Type{
		{Name: "Accepted", Required: true, Reasons: []conditions.Reason{
			{Status: metav1.ConditionTrue, Reason: "OK"}, {Status: metav1.ConditionFalse, Reason: "Invalid"}}},
		{Name: "Active", Reasons: []conditions.Reason{
			{Status: metav1.ConditionTrue, Reason: "On"}, {Status: metav1.ConditionFalse, Reason: "Ended", Terminal: true}}},
		{Name: "Ready", Required: true, Reasons: []conditions.Reason{
			{Status: metav1.ConditionTrue, Reason: "OK"}, {Status: metav1.ConditionFalse, Reason: "NotReady"}}},
	})
)

func good() []metav1.Condition {
	return []metav1.Condition{
		{Type: "Accepted", Status: "True", Reason: "OK", ObservedGeneration: 2, LastTransitionTime: at},
		{Type: "Ready", Status: "True", Reason: "OK", ObservedGeneration: 2, LastTransitionTime: at},
	}
}

func TestRun_EachRuleFires(t *testing.T) {
	cases := []struct {
		rule   string
		field  string
		mutate func([]metav1.Condition) []metav1.Condition
	}{
		{"CE001", "status.conditions[2].type", func(c []metav1.Condition) []metav1.Condition { return append(c, c[1]) }},
		{"CE002", "status.conditions[2].status", func(c []metav1.Condition) []metav1.Condition {
			return append(c, metav1.Condition{Type: "Theirs", Status: "Maybe", Reason: "X", LastTransitionTime: at})
		}},
		{"CE003", "status.conditions[1].reason", func(c []metav1.Condition) []metav1.Condition { c[1].Reason = "Sleepy"; return c }},
		{"CE004", "status.conditions[0].observedGeneration", func(c []metav1.Condition) []metav1.Condition { c[0].ObservedGeneration = 3; return c }},
		{"CE005", "status.conditions[0].lastTransitionTime", func(c []metav1.Condition) []metav1.Condition { c[0].LastTransitionTime = metav1.Time{}; return c }},
		{"CE005", "status.conditions[0].lastTransitionTime", func(c []metav1.Condition) []metav1.Condition {
			c[0].LastTransitionTime = metav1.NewTime(at.Add(time.Millisecond))
			return c
		}},
		{"CE006", "status.conditions[1].message", func(c []metav1.Condition) []metav1.Condition { c[1].Message = strings.Repeat("é", 600); return c }},
		{"CE007", "status.conditions[1].type", func(c []metav1.Condition) []metav1.Condition { c[0], c[1] = c[1], c[0]; return c }},
		{"CE008", "status.conditions", func(c []metav1.Condition) []metav1.Condition { return c[1:] }},
		{"CE009", "status.conditions[0].lastTransitionTime", func(c []metav1.Condition) []metav1.Condition {
			c[0].LastTransitionTime = metav1.NewTime(at.Add(time.Hour))
			return c
		}},
		{"CE010", "status.conditions[1].observedGeneration", func(c []metav1.Condition) []metav1.Condition { c[1].ObservedGeneration = 1; return c }},
	}
	for _, tc := range cases {
		t.Run(tc.rule, func(t *testing.T) {
			fs := Run(vocab, Object{Generation: 2, Conditions: tc.mutate(good()), Now: at.Add(time.Minute)})
			if assert.Len(t, fs, 1, "%v", fs) {
				assert.Equal(t, tc.rule, fs[0].Rule)
				assert.Equal(t, tc.field, fs[0].Field)
			}
		})
	}
}

func TestRun_CleanObjectHasNoFindings(t *testing.T) {
	assert.Empty(t, Run(vocab, Object{Generation: 2, Conditions: good(), Now: at.Time}))
	assert.Empty(t, Run(vocab, Object{Generation: 0}), "no conditions at all")
}

func TestRun_ForeignConditionsOnlyMeetKindNeutralRules(t *testing.T) {
	c := append(good(), metav1.Condition{Type: "Theirs", Status: "True", Reason: "Anything", Message: "multi\nline", ObservedGeneration: 1, LastTransitionTime: at})
	assert.Empty(t, Run(vocab, Object{Generation: 2, Conditions: c}))
}

func TestRules_IDsAreUniqueAndDocumented(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Rules() {
		assert.False(t, seen[r.ID], r.ID)
		seen[r.ID] = true
		assert.True(t, strings.HasSuffix(r.Summary, "."), r.ID)
		assert.NotContains(t, r.Summary, "\n")
	}
}

func TestErrors_DropsInfo(t *testing.T) {
	fs := []Finding{{Rule: "CE010", Severity: Info}, {Rule: "CE004", Severity: Error}}
	assert.Equal(t, []Finding{{Rule: "CE004", Severity: Error}}, Errors(fs))
}

func TestTransition(t *testing.T) {
	ended := metav1.Condition{Type: "Active", Status: "False", Reason: "Ended", ObservedGeneration: 1, LastTransitionTime: at}
	later := metav1.NewTime(at.Add(time.Hour))
	cases := []struct {
		name          string
		before, after []metav1.Condition
		rules         []string
	}{
		{"terminal left", []metav1.Condition{ended},
			[]metav1.Condition{{Type: "Active", Status: "True", Reason: "On", LastTransitionTime: later}}, []string{"CT001"}},
		{"terminal removed", []metav1.Condition{ended}, nil, []string{"CT001"}},
		{"terminal kept", []metav1.Condition{ended}, []metav1.Condition{ended}, nil},
		{"time moved without status", good(), func() []metav1.Condition {
			c := good()
			c[0].LastTransitionTime = later
			return c
		}(), []string{"CT002"}},
		{"status moved without time", good(), func() []metav1.Condition {
			c := good()
			c[1].Status, c[1].Reason = "False", "NotReady"
			return c
		}(), []string{"CT002"}},
		{"reason changed, time kept", good(), func() []metav1.Condition {
			c := good()
			c[0].Message = "other words"
			return c
		}(), nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, f := range Transition(vocab, tc.before, tc.after) {
				got = append(got, f.Rule)
			}
			assert.Equal(t, tc.rules, got)
		})
	}
}

// The vocabulary's own rules report exactly what Vocabulary.Validate
// finds beyond ValidateConditions, including its empty-message-on-True
// rule, and nothing that ValidateConditions alone reports.
func TestRun_VocabularyRulesAreValidate(t *testing.T) {
	strict := conditions.MustVocabulary("example.dev/v1", "Widget", []conditions.Type{
		{Name: "Ready", Required: true, Reasons: []conditions.Reason{{Status: metav1.ConditionTrue, Reason: "OK"}}},
	}, conditions.EmptyMessageWhenTrue())
	fs := Run(strict, Object{Generation: 1, Conditions: []metav1.Condition{
		{Type: "Ready", Status: "True", Reason: "OK", Message: "fine", ObservedGeneration: 1, LastTransitionTime: at},
	}})
	assert.Equal(t, []Finding{{Rule: "CE006", Severity: Error, Field: "status.conditions[0].message",
		Detail: `Invalid value: "fine": must be empty when status is True`}}, fs)

	fs = Run(vocab, Object{Generation: 1, Conditions: []metav1.Condition{
		{Type: "Accepted", Status: "True", Reason: "OK", ObservedGeneration: -1, LastTransitionTime: at},
		{Type: "Ready", Status: "True", Reason: "OK", ObservedGeneration: 1, LastTransitionTime: at},
	}})
	for _, f := range fs {
		assert.NotEqual(t, "CE004", f.Rule, "a negative generation is ValidateConditions' finding, not the ceiling's: %v", f)
	}
}
