package conditionstest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// dbSource is the Database's package, following the three conventions
// of SourceProblems.
const dbSource = `package database

import "github.com/condengine/condengine/conditions"

type Reason string

const (
	// ReasonCreated goes with Provisioned, True.
	ReasonCreated Reason = "Created"
	// ReasonPending goes with Provisioned, False.
	ReasonPending Reason = "Pending"
	// ReasonUp goes with Ready, True.
	ReasonUp Reason = "Up"
	// ReasonDown goes with Ready, False.
	ReasonDown = "Down"
)

const (
	ruleCreated = iota
	rulePending
	ruleProbe
)

var provisionedRules = []conditions.Rule{ruleCreated: {}, rulePending: {}}

var readyRules = [...]conditions.Rule{ruleProbe: {}}

var rules = append(provisionedRules, readyRules[:]...)

func provisioned(ok bool) conditions.Verdict {
	if ok {
		return rules[ruleCreated].Verdict(0, "", 0)
	}
	return rules[rulePending].Verdict(0, "", 0)
}

var ready = func(up bool) conditions.Verdict { return rules[ruleProbe].Verdict(0, "", 0) }
`

func dbTable() RuleTable { return RuleTable{Rules: dbRules(), Vocabulary: dbVocabulary()} }

func TestSourceProblems_AWholePackagePasses(t *testing.T) {
	assert.Empty(t, SourceProblems(dbTable(), map[string]string{"database.go": dbSource}))
}

func TestSourceProblems_EachPartForgotten(t *testing.T) {
	for name, tc := range map[string]struct{ old, new, want string }{
		"a reason constant no rule writes": {"ReasonDown = \"Down\"", "ReasonDown = \"Down\"\n\t// ReasonGone goes with Ready, False.\n\tReasonGone Reason = \"Gone\"",
			"Database: reason ReasonGone is declared but no rule writes it"},
		"a reason not named after its value": {`ReasonUp Reason = "Up"`, `ReasonUp Reason = "Running"`, `Database: reason ReasonUp is not named after its value "Running"`},
		"a reason without its condition":     {"// ReasonUp goes with Ready, True.", "// ReasonUp is fine.", "Database: reason ReasonUp: its comment does not say which condition it goes with"},
		"a reason naming no type":            {"// ReasonUp goes with Ready, True.", "// ReasonUp goes with nothing.", "reason ReasonUp: its comment does not say"},
		"a rule index no decision returns":   {"return rules[rulePending].Verdict(0, \"\", 0)", "return conditions.Verdict{}", "Database: rule rulePending is declared but no decision returns it"},
		"a rule index only a literal uses":   {"rules[ruleProbe].Verdict(0, \"\", 0) }", "conditions.Verdict{} }", "rule ruleProbe is declared but no decision returns it"},
		"a table not joined":                 {"var rules = append(provisionedRules, readyRules[:]...)", "var rules = provisionedRules", "Database: rule table readyRules is not joined into rules"},
		"no rules variable":                  {"var rules = append(", "var table = append(", "Database: the source declares no variable rules that joins the rule tables (convention 3 of SourceProblems)"},
		"not Go":                             {"package database", "package", "expected 'IDENT'"},
	} {
		t.Run(name, func(t *testing.T) {
			require := assert.New(t)
			src := strings.Replace(dbSource, tc.old, tc.new, 1)
			require.NotEqual(dbSource, src)
			probs := SourceProblems(dbTable(), map[string]string{"database.go": src})
			require.NotEmpty(probs)
			require.Contains(strings.Join(probs, "\n"), tc.want)
		})
	}
}

// TestSourceProblems_ConventionsNotFollowed: a package where a
// convention finds nothing is reported, not passed.
func TestSourceProblems_ConventionsNotFollowed(t *testing.T) {
	assert.Equal(t, []string{
		"Database: the source declares no constant named Reason… (convention 1 of SourceProblems)",
		"Database: the source declares no rule index constant named rule… (convention 2 of SourceProblems)",
		"Database: the source declares no variable rules that joins the rule tables (convention 3 of SourceProblems)",
	}, SourceProblems(dbTable(), map[string]string{"database.go": "package database\n\nconst reasonUp = \"Up\"\n\nvar table = 1\n"}))
	assert.Equal(t, []string{"no Go source to read: SourceProblems reads the package that declares the rules"}, SourceProblems(dbTable(), nil))
	assert.Equal(t, []string{"RuleTable.Vocabulary is nil: the reasons' comments are read against its types"},
		SourceProblems(RuleTable{Rules: dbRules()}, map[string]string{"database.go": dbSource}))
}

func TestCheckRuleSource_ReadsThisPackage(t *testing.T) {
	ft := &fakeT{TB: t}
	CheckRuleSource(ft, dbTable())
	joined := strings.Join(ft.errors, "\n")
	assert.Contains(t, joined, "convention 1 of SourceProblems", "this package declares no Reason constant")
}
