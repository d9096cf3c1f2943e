package conditionstest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
)

// RuleTable is one kind's rule declarations as values: the table and the
// kind's vocabulary, which must agree. Nothing in it is read from source
// code; see SourceProblems for the checks that need it.
type RuleTable struct {
	// Rules is the kind's table, in declaration order.
	Rules []conditions.Rule
	// Vocabulary is the kind's own, as the kind builds it (from the
	// table with conditions.FromRules, or listed by hand). Its kind is
	// the table's: every rule is of it, and every rule ID starts with it
	// in lower case and a slash.
	Vocabulary *conditions.Vocabulary
	// Arrange, when set, turns the table into the rules the kind's
	// vocabulary is read from, as the kind does (one rule per type, say);
	// the vocabulary is compared with the arranged table.
	Arrange func([]conditions.Rule) []conditions.Rule
	// TrueNeedsNoAction lets a True write go without an action, for a
	// kind whose documentation leaves the reader nothing to do there.
	TrueNeedsNoAction bool
	// More reports the kind's own problems with a table (an order only
	// that kind keeps, say); nil when it has none.
	More func([]conditions.Rule) []string
}

// arranged is the table the vocabulary is read from.
func (k RuleTable) arranged(table []conditions.Rule) []conditions.Rule {
	if k.Arrange != nil {
		return k.Arrange(slices.Clone(table))
	}
	return table
}

// vocabulary builds the kind's vocabulary from table, as a kind that
// reads it from its rules does: the types of k.Vocabulary, their reasons
// from the (arranged) table.
func (k RuleTable) vocabulary(table []conditions.Rule) (*conditions.Vocabulary, error) {
	types := k.Vocabulary.Types()
	for i := range types {
		types[i].Reasons = nil
	}
	return conditions.NewVocabulary(k.Vocabulary.APIVersion(), k.Vocabulary.Kind(), types, conditions.FromRules(k.arranged(table)))
}

// RuleProblems reports, from the values alone, every way a kind's rule
// table and its vocabulary disagree or leave a part out. Each finding
// names the kind, and the rule, type, status and reason it is about:
//
//  1. A missing vocabulary, or an empty table.
//  2. A rule left empty in the table, a rule of another kind, an ID
//     outside the kind's prefix, repeated or not in lower case, a
//     sentence that is empty or not one line (the shape CheckRules
//     checks).
//  3. A rule that decides a type and writes nothing, or a write without
//     a meaning or an action.
//  4. A rule that decides a type the vocabulary lacks, or writes a
//     (status, reason) the vocabulary does not list for that type.
//  5. An orphan reason: a (type, status, reason) the vocabulary lists
//     and no rule writes; a type no rule decides.
//  6. A pair two rules, or a rule and the vocabulary, declare with
//     different text; a vocabulary that lists a type's reasons in
//     another order than the rules write them.
//  7. Whatever RuleTable.More reports.
//
// Rules are compared with the vocabulary after RuleTable.Arrange. The
// list is empty when the declarations are whole.
func RuleProblems(k RuleTable) []string {
	if k.Vocabulary == nil {
		return []string{"RuleTable.Vocabulary is nil: the table is checked against the kind's vocabulary"}
	}
	kind := k.Vocabulary.Kind()
	if len(k.Rules) == 0 {
		return []string{fmt.Sprintf("%s: the rule table is empty", kind)}
	}
	var probs []string
	seen := map[string]bool{}
	prefix := strings.ToLower(kind) + "/"
	for i, r := range k.Rules {
		probs = append(probs, shapeProblems(r, seen)...)
		switch {
		case r.ID == "":
			probs = append(probs, fmt.Sprintf("%s: rule %d is declared but left out of the table", kind, i))
			continue
		case r.Kind != kind:
			probs = append(probs, fmt.Sprintf("rule %s is of kind %q, in the table of %s%s", r.ID, r.Kind, kind, writesOf(r)))
			continue
		case !strings.HasPrefix(r.ID, prefix):
			probs = append(probs, fmt.Sprintf("rule %s: the IDs of %s start with %s", r.ID, kind, prefix))
		case r.Types != nil && len(r.Writes) == 0:
			probs = append(probs, fmt.Sprintf("rule %s decides %s %s and writes nothing", r.ID, kind, strings.Join(r.Types, " and ")))
		}
		for _, w := range r.Writes {
			if w.Meaning == "" || w.Action == "" && !(k.TrueNeedsNoAction && w.Status == metav1.ConditionTrue) {
				probs = append(probs, fmt.Sprintf("rule %s: %s %s %s %s lacks a meaning or an action", r.ID, kind, strings.Join(r.Types, " and "), w.Status, w.Reason))
			}
		}
	}
	if k.More != nil {
		probs = append(probs, k.More(k.Rules)...)
	}
	return append(probs, agreement(k.Vocabulary, k.arranged(k.Rules))...)
}

// writesOf is ", writing <types> <status> <reason>, ..." for a message
// about r, or "" when r writes nothing.
func writesOf(r conditions.Rule) string {
	if len(r.Writes) == 0 {
		return ""
	}
	var ws []string
	for _, w := range r.Writes {
		ws = append(ws, string(w.Status)+" "+w.Reason)
	}
	return ", writing " + strings.Join(r.Types, " and ") + " " + strings.Join(ws, ", ")
}

// pair is one (type, status, reason) of a kind.
type pair struct {
	typ    string
	status metav1.ConditionStatus
	reason string
}

func (p pair) String() string { return p.typ + " " + string(p.status) + " " + p.reason }

// declaration is the first rule that writes a pair, with its text.
type declaration struct {
	rule  string
	write conditions.Reason
}

// agreement reports where the vocabulary v and the rules it is read from
// disagree (points 4 to 6 of RuleProblems). Rules of another kind are
// left to RuleProblems.
func agreement(v *conditions.Vocabulary, rules []conditions.Rule) []string {
	var probs []string
	kind := v.Kind()
	declared := map[pair]declaration{}
	written := map[string][]pair{} // by type, in rule order
	decided := map[string]bool{}
	for _, r := range rules {
		if r.Kind != kind {
			continue
		}
		if r.Types == nil {
			for _, t := range v.Types() {
				decided[t.Name] = true
			}
		}
		for _, typ := range r.Types {
			decided[typ] = true
			if !v.Has(typ) {
				probs = append(probs, fmt.Sprintf("rule %s decides %s %s, which the vocabulary lacks", r.ID, kind, typ))
				continue
			}
			for _, w := range r.Writes {
				p := pair{typ, w.Status, w.Reason}
				if d, ok := declared[p]; ok {
					if d.write != w {
						probs = append(probs, fmt.Sprintf("%s %s is declared with different text by rules %s and %s", kind, p, d.rule, r.ID))
					}
					continue
				}
				declared[p] = declaration{r.ID, w}
				written[typ] = append(written[typ], p)
				switch listed, ok := v.Lookup(typ, w.Status, w.Reason); {
				case !ok:
					probs = append(probs, fmt.Sprintf("rule %s writes %s %s, which the vocabulary lacks", r.ID, kind, p))
				case listed != w:
					probs = append(probs, fmt.Sprintf("%s %s: the vocabulary's text is not the text of rule %s", kind, p, r.ID))
				}
			}
		}
	}
	for _, t := range v.Types() {
		if !decided[t.Name] {
			probs = append(probs, fmt.Sprintf("%s %s: no rule decides it", kind, t.Name))
		}
		var listed []pair
		for _, e := range t.Reasons {
			p := pair{t.Name, e.Status, e.Reason}
			if _, ok := declared[p]; !ok {
				probs = append(probs, fmt.Sprintf("%s %s is in the vocabulary but no rule writes it (an orphan reason)", kind, p))
				continue
			}
			listed = append(listed, p)
		}
		inVocabulary := slices.DeleteFunc(slices.Clone(written[t.Name]), func(p pair) bool {
			_, ok := v.Lookup(p.typ, p.status, p.reason)
			return !ok
		})
		if !slices.Equal(listed, inVocabulary) {
			probs = append(probs, fmt.Sprintf("%s %s: the vocabulary lists the reasons %v, the rules write them in the order %v", kind, t.Name, listed, inVocabulary))
		}
	}
	return probs
}

// CheckRuleTable fails t with each of RuleProblems' findings: the
// kind's rule table and vocabulary, as values, agree and leave nothing
// out.
func CheckRuleTable(t testing.TB, k RuleTable) {
	t.Helper()
	for _, p := range RuleProblems(k) {
		t.Error(p)
	}
}

// CheckRules reports the problems of a rule table: an ID repeated or not
// of the form kind/..., a sentence that is empty or not one line, a pair
// the kind's vocabulary does not list. vocabs is looked up by kind. The
// list is empty when the table is sound.
func CheckRules(rules []conditions.Rule, vocabs []*conditions.Vocabulary) []string {
	var probs []string
	seen := map[string]bool{}
	for _, r := range rules {
		probs = append(probs, shapeProblems(r, seen)...)
		if r.Kind == "" {
			continue
		}
		i := slices.IndexFunc(vocabs, func(v *conditions.Vocabulary) bool { return v.Kind() == r.Kind })
		if i < 0 {
			probs = append(probs, fmt.Sprintf("rule %s: no vocabulary for kind %s", r.ID, r.Kind))
			continue
		}
		for _, t := range r.Types {
			if !vocabs[i].Has(t) {
				probs = append(probs, fmt.Sprintf("rule %s: %s has no condition type %s", r.ID, r.Kind, t))
			}
		}
		for _, p := range r.Writes {
			if !slices.ContainsFunc(r.Types, func(t string) bool { _, ok := vocabs[i].Lookup(t, p.Status, p.Reason); return ok }) {
				probs = append(probs, fmt.Sprintf("rule %s: %s %s is not in the vocabulary of %v", r.ID, p.Status, p.Reason, r.Types))
			}
		}
	}
	return probs
}

// shapeProblems checks what a rule must be whatever its vocabulary: an ID
// not seen before in the table, kind/... in lower case, and a one-line
// sentence. seen collects the IDs.
func shapeProblems(r conditions.Rule, seen map[string]bool) []string {
	var probs []string
	if seen[r.ID] {
		probs = append(probs, fmt.Sprintf("rule %s is declared twice", r.ID))
	}
	seen[r.ID] = true
	if r.ID == "" || r.ID != strings.ToLower(r.ID) || !strings.Contains(r.ID, "/") {
		probs = append(probs, fmt.Sprintf("rule %q: an ID is kind/type/name in lower case", r.ID))
	}
	if r.Sentence == "" || strings.ContainsAny(r.Sentence, "\n\r") {
		probs = append(probs, fmt.Sprintf("rule %s: the sentence must be one non-empty line", r.ID))
	}
	return probs
}
