package vocab

import (
	"io"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
)

// RulesMarkdown writes the rule table rules as markdown, note below its
// title: a section per kind in the order the kinds first appear ("Every
// kind" for the shared rules, whose Kind is empty), a row per rule with
// its condition types, the pairs it writes and its sentence.
func RulesMarkdown(w io.Writer, rules []conditions.Rule, note string) error {
	ew := &errWriter{w: w}
	ew.printf("# Decision rules\n\n%s", note)
	kind := "\x00"
	for _, r := range rules {
		if r.Kind != kind {
			kind = r.Kind
			title := kind
			if title == "" {
				title = "Every kind"
			}
			ew.printf("\n## %s\n\n| Rule | Condition types | Writes | What it decides |\n|---|---|---|---|\n", title)
		}
		types := "every type"
		if len(r.Types) > 0 {
			types = "`" + strings.Join(r.Types, "`, `") + "`"
		}
		var pairs []string
		for _, p := range r.Writes {
			pairs = append(pairs, string(p.Status)+" `"+p.Reason+"`")
		}
		writes := strings.Join(pairs, ", ")
		if writes == "" {
			writes = "keeps what the object carries"
		}
		ew.printf("| `%s` | %s | %s | %s |\n", r.ID, types, writes, Cell(r.Sentence))
	}
	return ew.err
}

// RulesFor lists, in the order of rules, the IDs of the rules that may
// write (typ, status, reason) on an object of kind.
func RulesFor(rules []conditions.Rule, kind, typ string, status metav1.ConditionStatus, reason string) []string {
	var out []string
	for _, r := range rules {
		if r.Kind != kind || !slices.Contains(r.Types, typ) {
			continue
		}
		if slices.ContainsFunc(r.Writes, func(w conditions.Reason) bool { return w.Status == status && w.Reason == reason }) {
			out = append(out, r.ID)
		}
	}
	return out
}
