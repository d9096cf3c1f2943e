package vocab_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/vocab"
)

var (
	ok       = conditions.Reason{Status: metav1.ConditionTrue, Reason: "OK", Meaning: "fine | really", Action: "none\nat all"}
	missing  = conditions.Reason{Status: metav1.ConditionFalse, Reason: "Missing", Meaning: "gone", Terminal: true}
	database = conditions.MustVocabulary("example.dev/v1", "Database", []conditions.Type{
		{Name: "Ready", Required: true, Reasons: []conditions.Reason{ok, missing}},
		{Name: "Backup", Reasons: []conditions.Reason{ok}},
	})
	queue = conditions.MustVocabulary("example.dev/v1", "Queue", []conditions.Type{
		{Name: "Ready", Reasons: []conditions.Reason{ok}},
	})
	rules = []conditions.Rule{
		{ID: "shared/kept", Types: nil, Sentence: "kept"},
		{ID: "database/ready/ok", Kind: "Database", Types: []string{"Ready"}, Sentence: "a | b", Writes: []conditions.Reason{ok}},
		{ID: "database/ready/ok-too", Kind: "Database", Types: []string{"Ready", "Backup"}, Writes: []conditions.Reason{ok}},
		{ID: "database/ready/missing", Kind: "Database", Types: []string{"Ready"}, Writes: []conditions.Reason{missing}},
		{ID: "queue/ready/ok", Kind: "Queue", Types: []string{"Ready"}, Writes: []conditions.Reason{ok}},
	}
)

// RulesFor names the rules of the kind and type that write the pair, in
// the table's order, and no rule of another kind, type or status.
func TestRulesFor_RulesOfThePairInTableOrder(t *testing.T) {
	for _, tc := range []struct {
		kind, typ string
		status    metav1.ConditionStatus
		reason    string
		want      []string
	}{
		{"Database", "Ready", metav1.ConditionTrue, "OK", []string{"database/ready/ok", "database/ready/ok-too"}},
		{"Database", "Backup", metav1.ConditionTrue, "OK", []string{"database/ready/ok-too"}},
		{"Database", "Ready", metav1.ConditionFalse, "OK", nil},
		{"Database", "Ready", metav1.ConditionFalse, "Missing", []string{"database/ready/missing"}},
		{"Queue", "Ready", metav1.ConditionTrue, "OK", []string{"queue/ready/ok"}},
		{"Queue", "Backup", metav1.ConditionTrue, "OK", nil},
	} {
		if got := vocab.RulesFor(rules, tc.kind, tc.typ, tc.status, tc.reason); !cmp.Equal(got, tc.want) {
			t.Errorf("%s %s %s %s: %q, want %q", tc.kind, tc.typ, tc.status, tc.reason, got, tc.want)
		}
	}
}

// A cell is one line and its pipes cannot end it.
func TestCell_EscapesPipesAndNewlines(t *testing.T) {
	if got := vocab.Cell("a | b\nc\t d"); got != `a \| b c d` {
		t.Fatalf("%q", got)
	}
}

func TestMarkdown_RowsCarryTheirRulesAndStayOneLine(t *testing.T) {
	var b bytes.Buffer
	if err := vocab.Markdown(&b, database, rules); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| True | `OK` | fine \\| really | none at all | transient | `database/ready/ok`, `database/ready/ok-too` |\n",
		"| False | `Missing` | gone |  | terminal | `database/ready/missing` |\n",
		"## Backup\n\nPresent only in some states.\n",
		"## Ready\n\nAlways present once the kind carries any condition.\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("page lacks %q:\n%s", want, b.String())
		}
	}
}

// The index links every page, under the caller's note.
func TestDocs_OnePagePerKindAndAnIndex(t *testing.T) {
	files := vocab.Docs([]*conditions.Vocabulary{database, queue}, rules, "made by hand.\n\n")
	var names []string
	for n := range files {
		names = append(names, n)
	}
	if d := cmp.Diff([]string{"README.md", "database.md", "queue.md"}, sorted(names)); d != "" {
		t.Fatal(d)
	}
	want := "# Condition vocabularies\n\nmade by hand.\n\n" +
		"| Kind | API version | Condition types, in the order they are written |\n|---|---|---|\n" +
		"| [Database](database.md) | `example.dev/v1` | `Ready`, `Backup` |\n" +
		"| [Queue](queue.md) | `example.dev/v1` | `Ready` |\n"
	if d := cmp.Diff(want, string(files["README.md"])); d != "" {
		t.Error(d)
	}
	var page bytes.Buffer
	_ = vocab.Markdown(&page, queue, rules)
	if string(files["queue.md"]) != page.String() {
		t.Errorf("queue.md is not the kind's Markdown page")
	}
}

func TestWriteDocs_WritesEveryFile(t *testing.T) {
	dir := t.TempDir() + "/new"
	if err := vocab.WriteDocs(dir, []*conditions.Vocabulary{queue}, rules, ""); err != nil {
		t.Fatal(err)
	}
	for name, data := range vocab.Docs([]*conditions.Vocabulary{queue}, rules, "") {
		if got := readFile(t, dir+"/"+name); got != string(data) {
			t.Errorf("%s: %q, want %q", name, got, data)
		}
	}
}

func TestJSON_EveryTypeAndReasonInOrder(t *testing.T) {
	var b bytes.Buffer
	if err := vocab.JSON(&b, []*conditions.Vocabulary{database}); err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	want := []map[string]any{{"apiVersion": "example.dev/v1", "kind": "Database", "types": []any{
		map[string]any{"type": "Ready", "meaning": "", "required": true, "reasons": []any{
			map[string]any{"status": "True", "reason": "OK", "meaning": "fine | really", "action": "none\nat all", "terminal": false},
			map[string]any{"status": "False", "reason": "Missing", "meaning": "gone", "action": "", "terminal": true},
		}},
		map[string]any{"type": "Backup", "meaning": "", "required": false, "reasons": []any{
			map[string]any{"status": "True", "reason": "OK", "meaning": "fine | really", "action": "none\nat all", "terminal": false},
		}},
	}}}
	if d := cmp.Diff(want, got); d != "" {
		t.Error(d)
	}
}

// The rule table has a section per kind, in first-seen order, the
// shared rules under "Every kind".
func TestRulesMarkdown_SectionPerKind(t *testing.T) {
	var b bytes.Buffer
	if err := vocab.RulesMarkdown(&b, rules, "note.\n"); err != nil {
		t.Fatal(err)
	}
	want := "# Decision rules\n\nnote.\n" +
		"\n## Every kind\n\n| Rule | Condition types | Writes | What it decides |\n|---|---|---|---|\n" +
		"| `shared/kept` | every type | keeps what the object carries | kept |\n" +
		"\n## Database\n\n| Rule | Condition types | Writes | What it decides |\n|---|---|---|---|\n" +
		"| `database/ready/ok` | `Ready` | True `OK` | a \\| b |\n" +
		"| `database/ready/ok-too` | `Ready`, `Backup` | True `OK` |  |\n" +
		"| `database/ready/missing` | `Ready` | False `Missing` |  |\n" +
		"\n## Queue\n\n| Rule | Condition types | Writes | What it decides |\n|---|---|---|---|\n" +
		"| `queue/ready/ok` | `Ready` | True `OK` |  |\n"
	if d := cmp.Diff(want, b.String()); d != "" {
		t.Error(d)
	}
}

// A writer that fails is reported, not ignored.
func TestRenderers_ReportAWriteError(t *testing.T) {
	if err := vocab.Markdown(failing{}, database, rules); err == nil {
		t.Error("Markdown: no error")
	}
	if err := vocab.RulesMarkdown(failing{}, rules, ""); err == nil {
		t.Error("RulesMarkdown: no error")
	}
	if err := vocab.JSON(failing{}, []*conditions.Vocabulary{queue}); err == nil {
		t.Error("JSON: no error")
	}
}

type failing struct{}

func (failing) Write([]byte) (int, error) { return 0, errors.New("disk full") }
