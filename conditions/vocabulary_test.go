package conditions

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// testVocab is a small kind used across this package's tests: two types of
// our own, Ready required, with one terminal reason.
func testVocab(t testing.TB, opts ...Option) *Vocabulary {
	t.Helper()
	v, err := NewVocabulary("example.dev/v1", "Widget", []Type{
		{Name: "Accepted", Required: true, Reasons: []Reason{
			{Status: metav1.ConditionTrue, Reason: "OK"},
			{Status: metav1.ConditionFalse, Reason: "Invalid"},
		}},
		{Name: "Synced", Reasons: []Reason{
			{Status: metav1.ConditionTrue, Reason: "OK"},
			{Status: metav1.ConditionUnknown, Reason: "Pending"},
			{Status: metav1.ConditionFalse, Reason: "Gone", Terminal: true},
		}},
		{Name: "Ready", Required: true, Reasons: []Reason{
			{Status: metav1.ConditionTrue, Reason: "OK"},
			{Status: metav1.ConditionFalse, Reason: "NotReady"},
			{Status: metav1.ConditionUnknown, Reason: "Pending"},
		}},
	}, opts...)
	require.NoError(t, err)
	return v
}

func TestNewVocabulary_RefusesBadTables(t *testing.T) {
	ok := Reason{Status: metav1.ConditionTrue, Reason: "OK"}
	cases := map[string][]Type{
		"empty type name":   {{Name: "", Reasons: []Reason{ok}}},
		"type twice":        {{Name: "A", Reasons: []Reason{ok}}, {Name: "A"}},
		"bad status":        {{Name: "A", Reasons: []Reason{{Status: "Maybe", Reason: "X"}}}},
		"empty reason":      {{Name: "A", Reasons: []Reason{{Status: metav1.ConditionTrue}}}},
		"pair listed twice": {{Name: "A", Reasons: []Reason{ok, ok}}},
	}
	for name, types := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := NewVocabulary("x/v1", "K", types)
			assert.Error(t, err)
		})
	}
	_, err := NewVocabulary("x/v1", "", nil)
	assert.Error(t, err, "empty kind")
}

func TestVocabulary_LookupAndOrder(t *testing.T) {
	v := testVocab(t)
	assert.Equal(t, "Widget", v.Kind())
	assert.Equal(t, "example.dev/v1", v.APIVersion())
	assert.Equal(t, 0, v.Index("Accepted"))
	assert.Equal(t, 2, v.Index("Ready"))
	assert.Equal(t, -1, v.Index("Foreign"))
	assert.True(t, v.Has("Synced"))
	assert.False(t, v.Has("Foreign"))

	r, ok := v.Lookup("Synced", metav1.ConditionFalse, "Gone")
	require.True(t, ok)
	assert.True(t, r.Terminal)
	_, ok = v.Lookup("Synced", metav1.ConditionTrue, "Gone")
	assert.False(t, ok, "a reason is bound to its status")
	assert.True(t, v.IsTerminal(metav1.Condition{Type: "Synced", Status: metav1.ConditionFalse, Reason: "Gone"}))
	assert.False(t, v.IsTerminal(metav1.Condition{Type: "Synced", Status: metav1.ConditionUnknown, Reason: "Pending"}))
}

func TestVocabulary_TypesIsACopy(t *testing.T) {
	v := testVocab(t)
	ts := v.Types()
	ts[0].Name = "Mutated"
	ts[1].Reasons[0].Reason = "Mutated"
	assert.Equal(t, "Accepted", v.Types()[0].Name)
	assert.Equal(t, "OK", v.Types()[1].Reasons[0].Reason)
}
