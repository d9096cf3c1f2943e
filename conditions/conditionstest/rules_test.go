package conditionstest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
)

func TestCheckRules_ReportsEachProblem(t *testing.T) {
	v := conditions.MustVocabulary("example.dev/v1", "Widget", []conditions.Type{
		{Name: "Accepted", Reasons: []conditions.Reason{{Status: metav1.ConditionTrue, Reason: "OK"}}},
		{Name: "Ready", Reasons: []conditions.Reason{{Status: metav1.ConditionTrue, Reason: "OK"}}},
	})
	rules := []conditions.Rule{
		{ID: "widget/accepted/ok", Kind: "Widget", Types: []string{"Accepted"}, Sentence: "fine",
			Writes: []conditions.Reason{{Status: metav1.ConditionTrue, Reason: "OK"}}},
		{ID: "widget/accepted/ok", Kind: "Widget", Types: []string{"Accepted"}, Sentence: "again"},
		{ID: "Widget/Bad", Kind: "Widget", Sentence: "upper case"},
		{ID: "widget/ready/two-lines", Kind: "Widget", Types: []string{"Ready"}, Sentence: "one\ntwo"},
		{ID: "widget/ready/wrong-pair", Kind: "Widget", Types: []string{"Ready"}, Sentence: "x",
			Writes: []conditions.Reason{{Status: metav1.ConditionFalse, Reason: "Gone"}}},
		{ID: "widget/nope/type", Kind: "Widget", Types: []string{"Nope"}, Sentence: "x"},
		{ID: "gadget/x", Kind: "Gadget", Sentence: "no vocabulary"},
	}
	probs := CheckRules(rules, []*conditions.Vocabulary{v})
	joined := strings.Join(probs, "\n")
	for _, want := range []string{"declared twice", `"Widget/Bad"`, "two-lines: the sentence", "False Gone is not in the vocabulary",
		"has no condition type Nope", "no vocabulary for kind Gadget"} {
		assert.Contains(t, joined, want)
	}
	assert.Len(t, probs, 6)
}
