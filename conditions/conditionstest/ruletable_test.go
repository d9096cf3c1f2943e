package conditionstest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
)

// A small kind of someone else's, declared as values: a Database with
// Provisioned and Ready.
var (
	dbCreated = conditions.Reason{Status: metav1.ConditionTrue, Reason: "Created", Meaning: "The volume exists.", Action: "None."}
	dbPending = conditions.Reason{Status: metav1.ConditionFalse, Reason: "Pending", Meaning: "The volume is not there yet.", Action: "Wait."}
	dbUp      = conditions.Reason{Status: metav1.ConditionTrue, Reason: "Up", Meaning: "It answers.", Action: "None."}
	dbDown    = conditions.Reason{Status: metav1.ConditionFalse, Reason: "Down", Meaning: "It does not answer.", Action: "Read the message."}
)

func dbRules() []conditions.Rule {
	return []conditions.Rule{
		{ID: "database/provisioned/created", Kind: "Database", Types: []string{"Provisioned"}, Sentence: "the volume exists",
			Writes: []conditions.Reason{dbCreated}},
		{ID: "database/provisioned/pending", Kind: "Database", Types: []string{"Provisioned"}, Sentence: "the volume is not there yet",
			Writes: []conditions.Reason{dbPending}},
		{ID: "database/ready/probe", Kind: "Database", Types: []string{"Ready"}, Sentence: "the probe's answer",
			Writes: []conditions.Reason{dbUp, dbDown}},
	}
}

// dbVocabulary lists the Database's reasons by hand, as an author who
// does not read them from the rules writes them.
func dbVocabulary(ready ...conditions.Reason) *conditions.Vocabulary {
	if ready == nil {
		ready = []conditions.Reason{dbUp, dbDown}
	}
	return conditions.MustVocabulary("example.com/v1", "Database", []conditions.Type{
		{Name: "Provisioned", Reasons: []conditions.Reason{dbCreated, dbPending}},
		{Name: "Ready", Reasons: ready},
	})
}

func TestRuleProblems_AWholeKindPasses(t *testing.T) {
	assert.Empty(t, RuleProblems(RuleTable{Rules: dbRules(), Vocabulary: dbVocabulary()}))
	fromRules := conditions.MustVocabulary("example.com/v1", "Database",
		[]conditions.Type{{Name: "Provisioned"}, {Name: "Ready"}}, conditions.FromRules(dbRules()))
	assert.Empty(t, RuleProblems(RuleTable{Rules: dbRules(), Vocabulary: fromRules}))
}

// TestRuleProblems_OrphanReason: a reason the vocabulary lists and no
// rule writes fails, named by kind, type, status and reason. (The check
// once rebuilt the vocabulary from the rules and passed it.)
func TestRuleProblems_OrphanReason(t *testing.T) {
	timeout := conditions.Reason{Status: metav1.ConditionUnknown, Reason: "Timeout", Meaning: "No answer in time.", Action: "Wait."}
	probs := RuleProblems(RuleTable{Rules: dbRules(), Vocabulary: dbVocabulary(dbUp, dbDown, timeout)})
	assert.Equal(t, []string{"Database Ready Unknown Timeout is in the vocabulary but no rule writes it (an orphan reason)"}, probs)

	none := conditions.MustVocabulary("example.com/v1", "Database", []conditions.Type{
		{Name: "Provisioned", Reasons: []conditions.Reason{dbCreated, dbPending}},
		{Name: "Ready", Reasons: []conditions.Reason{dbUp, dbDown}},
		{Name: "BackedUp", Reasons: []conditions.Reason{dbCreated}},
	})
	assert.Equal(t, []string{
		"Database BackedUp: no rule decides it",
		"Database BackedUp True Created is in the vocabulary but no rule writes it (an orphan reason)",
	}, RuleProblems(RuleTable{Rules: dbRules(), Vocabulary: none}))
}

func TestRuleProblems_ARuleWritesWhatTheVocabularyLacks(t *testing.T) {
	rules := dbRules()
	rules[2].Writes = append(rules[2].Writes, conditions.Reason{Status: metav1.ConditionFalse, Reason: "Gone", Meaning: "m", Action: "a"})
	rules = append(rules, conditions.Rule{ID: "database/backup/none", Kind: "Database", Types: []string{"BackedUp"}, Sentence: "no backup",
		Writes: []conditions.Reason{dbPending}})
	joined := strings.Join(RuleProblems(RuleTable{Rules: rules, Vocabulary: dbVocabulary()}), "\n")
	assert.Contains(t, joined, "rule database/ready/probe writes Database Ready False Gone, which the vocabulary lacks")
	assert.Contains(t, joined, "rule database/backup/none decides Database BackedUp, which the vocabulary lacks")
}

func TestRuleProblems_ARuleOfAnotherKind(t *testing.T) {
	rules := append(dbRules(), conditions.Rule{ID: "cache/ready/up", Kind: "Cache", Types: []string{"Ready"}, Sentence: "up",
		Writes: []conditions.Reason{dbUp}})
	assert.Equal(t, []string{`rule cache/ready/up is of kind "Cache", in the table of Database, writing Ready True Up`},
		RuleProblems(RuleTable{Rules: rules, Vocabulary: dbVocabulary()}))

	rules[3] = conditions.Rule{ID: "database/x", Sentence: "no kind"}
	assert.Equal(t, []string{`rule database/x is of kind "", in the table of Database`},
		RuleProblems(RuleTable{Rules: rules, Vocabulary: dbVocabulary()}))
}

func TestRuleProblems_TextAndOrder(t *testing.T) {
	edited := dbDown
	edited.Action = "Call someone."
	assert.Equal(t, []string{"Database Ready False Down: the vocabulary's text is not the text of rule database/ready/probe"},
		RuleProblems(RuleTable{Rules: dbRules(), Vocabulary: dbVocabulary(dbUp, edited)}))

	assert.Equal(t, []string{"Database Ready: the vocabulary lists the reasons [Ready False Down Ready True Up], the rules write them in the order [Ready True Up Ready False Down]"},
		RuleProblems(RuleTable{Rules: dbRules(), Vocabulary: dbVocabulary(dbDown, dbUp)}))

	twice := append(dbRules(), conditions.Rule{ID: "database/ready/again", Kind: "Database", Types: []string{"Ready"}, Sentence: "again",
		Writes: []conditions.Reason{edited}})
	assert.Equal(t, []string{"Database Ready False Down is declared with different text by rules database/ready/probe and database/ready/again"},
		RuleProblems(RuleTable{Rules: twice, Vocabulary: dbVocabulary()}))
}

func TestRuleProblems_EachPartOfARule(t *testing.T) {
	rules := dbRules()
	rules[0].ID = "db/provisioned/created"
	rules[1].Writes = nil
	rules[2].Writes = []conditions.Reason{dbUp, {Status: dbDown.Status, Reason: dbDown.Reason, Meaning: dbDown.Meaning}}
	rules = append(rules, conditions.Rule{})
	joined := strings.Join(RuleProblems(RuleTable{Rules: rules, Vocabulary: dbVocabulary(dbUp, conditions.Reason{Status: dbDown.Status, Reason: dbDown.Reason, Meaning: dbDown.Meaning})}), "\n")
	for _, want := range []string{
		"rule db/provisioned/created: the IDs of Database start with database/",
		"rule database/provisioned/pending decides Database Provisioned and writes nothing",
		"rule database/ready/probe: Database Ready False Down lacks a meaning or an action",
		"Database: rule 3 is declared but left out of the table",
		"Database Provisioned False Pending is in the vocabulary but no rule writes it",
	} {
		assert.Contains(t, joined, want)
	}
}

func TestRuleProblems_TrueNeedsNoAction(t *testing.T) {
	up := dbUp
	up.Action = ""
	rules := dbRules()
	rules[2].Writes = []conditions.Reason{up, dbDown}
	k := RuleTable{Rules: rules, Vocabulary: dbVocabulary(up, dbDown)}
	assert.Equal(t, []string{"rule database/ready/probe: Database Ready True Up lacks a meaning or an action"}, RuleProblems(k))
	k.TrueNeedsNoAction = true
	assert.Empty(t, RuleProblems(k))
}

// TestRuleProblems_ArrangedTable: with Arrange, the vocabulary is
// compared with the arranged table, as the kind reads it from that.
func TestRuleProblems_ArrangedTable(t *testing.T) {
	both := []conditions.Rule{{ID: "database/both", Kind: "Database", Types: []string{"Provisioned", "Ready"}, Sentence: "both at once",
		Writes: []conditions.Reason{dbCreated, dbPending, dbUp, dbDown}}}
	perType := func(rs []conditions.Rule) []conditions.Rule {
		r := rs[0]
		p, q := r, r
		p.Types, p.Writes = []string{"Provisioned"}, r.Writes[:2]
		q.Types, q.Writes = []string{"Ready"}, r.Writes[2:]
		return []conditions.Rule{p, q}
	}
	k := RuleTable{Rules: both, Vocabulary: dbVocabulary()}
	assert.Contains(t, strings.Join(RuleProblems(k), "\n"), "rule database/both writes Database Ready True Created, which the vocabulary lacks")
	k.Arrange = perType
	assert.Empty(t, RuleProblems(k))
}

func TestRuleProblems_NothingToCheckIsAProblem(t *testing.T) {
	assert.Equal(t, []string{"RuleTable.Vocabulary is nil: the table is checked against the kind's vocabulary"}, RuleProblems(RuleTable{Rules: dbRules()}))
	assert.Equal(t, []string{"Database: the rule table is empty"}, RuleProblems(RuleTable{Vocabulary: dbVocabulary()}))
}

func TestRuleProblems_More(t *testing.T) {
	k := RuleTable{Rules: dbRules(), Vocabulary: dbVocabulary(), More: func(rs []conditions.Rule) []string {
		require.Len(t, rs, 3)
		return []string{"its own problem"}
	}}
	assert.Equal(t, []string{"its own problem"}, RuleProblems(k))
}

// fakeT records what a check reports, to test the Check functions.
type fakeT struct {
	testing.TB
	errors []string
}

func (f *fakeT) Helper()           {}
func (f *fakeT) Error(args ...any) { f.errors = append(f.errors, args[0].(string)) }

func TestCheckRuleTable_FailsOnEachProblem(t *testing.T) {
	timeout := conditions.Reason{Status: metav1.ConditionUnknown, Reason: "Timeout", Meaning: "m", Action: "a"}
	ft := &fakeT{TB: t}
	CheckRuleTable(ft, RuleTable{Rules: dbRules(), Vocabulary: dbVocabulary(dbUp, dbDown, timeout)})
	assert.Equal(t, []string{"Database Ready Unknown Timeout is in the vocabulary but no rule writes it (an orphan reason)"}, ft.errors)
}
