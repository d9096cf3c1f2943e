package conditions

import (
	"fmt"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Rule is one decision rule of a kind, declared once as a value: its
// stable ID, the condition types it decides, its one-line sentence, and
// the reasons it writes with the text the documentation prints for each
// (meaning, action, terminal flag, message form). A kind's vocabulary
// (FromRules), its rule table and its reason order are read from its
// rules, so nothing about a rule is listed a second time.
//
// A deciding function returns a Verdict naming the rule that fired, so
// explaining a decision never means making it again.
type Rule struct {
	// ID is stable across releases: "<kind>/<type>/<name>" in lower case,
	// e.g. "binding/accepted/channel-conflict", or "<kind>/<name>" for a
	// rule that applies to every type of the kind.
	ID string
	// Kind is the kind whose conditions the rule decides.
	Kind string
	// Types are the condition types the rule decides; nil for every type
	// of the kind.
	Types []string
	// Sentence says in one line what the rule decides and when.
	Sentence string
	// Writes are the (status, reason) entries the rule may write to each
	// of Types, each with its documentation text, in the order the
	// vocabulary lists them. Two rules that write the same pair declare
	// the same entry (share the slice); FromRules refuses a pair whose
	// texts differ. A rule that keeps a condition as the object carries
	// it lists what it may keep.
	Writes []Reason
	// Example, when set, is a small input that makes the rule fire, so
	// that the rule's one declaration also shows it at work. It holds
	// the input keys of a scenario file in YAML (objects, and whatever
	// else the system reads: probes, served, failures; see
	// docs/scenarios.md), and the first of its objects of Kind is the
	// one the rule decides. `go generate ./conformance` writes it into
	// the corpus as a scenario expecting that object's condition of
	// Types[0] to carry the status and reason of Writes[0].
	// A rule that a hand-written scenario already shows needs none.
	Example string `json:"-"`
}

// Verdict is what a deciding function returns: the rule that fired and
// the condition it decided. Rule points into the kind's table, so a
// verdict costs no allocation.
type Verdict struct {
	// Rule is the rule that fired.
	Rule *Rule
	// Status and Reason are the pair the rule wrote, one of Rule.Writes.
	Status metav1.ConditionStatus
	Reason string
	// Message is the condition's message.
	Message string
	// Generation is the generation the condition observes.
	Generation int64
}

// WithExample is r with input as its Example, for a rule built by a
// kind's helper rather than written out field by field.
func (r Rule) WithExample(input string) Rule {
	r.Example = input
	return r
}

// Verdict is the verdict of r writing the pair at Writes[i]; an empty
// message takes that pair's fixed message.
func (r *Rule) Verdict(i int, message string, generation int64) Verdict {
	w := &r.Writes[i]
	if message == "" {
		message = w.Message
	}
	return Verdict{Rule: r, Status: w.Status, Reason: w.Reason, Message: message, Generation: generation}
}

// Condition is the verdict as the condition of type typ, without times.
func (v Verdict) Condition(typ string) metav1.Condition {
	return metav1.Condition{Type: typ, Status: v.Status, Reason: v.Reason, Message: v.Message, ObservedGeneration: v.Generation}
}

// FromRules fills each type's reasons from the rules that decide it, in
// rule order, leaving out a pair already listed: the vocabulary is read
// from the rules instead of being listed beside them. NewVocabulary then
// fails on a rule of another kind, a rule naming a type the vocabulary
// lacks, or a pair two rules declare with different text. The rules are
// kept: Vocabulary.Rules returns them.
func FromRules(rules []Rule) Option {
	return func(v *Vocabulary) {
		v.rules = slices.Clone(rules)
		for i := range v.types {
			v.types[i].Reasons = slices.Clip(v.types[i].Reasons)
		}
		for _, r := range rules {
			if r.Kind != v.kind {
				v.err = fmt.Errorf("vocabulary %s: rule %s is of kind %q", v.kind, r.ID, r.Kind)
				return
			}
			for _, typ := range r.Types {
				i := slices.IndexFunc(v.types, func(t Type) bool { return t.Name == typ })
				if i < 0 {
					v.err = fmt.Errorf("vocabulary %s: rule %s decides %s, which is not a type of the kind", v.kind, r.ID, typ)
					return
				}
				for _, w := range r.Writes {
					j := slices.IndexFunc(v.types[i].Reasons, func(x Reason) bool { return x.Status == w.Status && x.Reason == w.Reason })
					switch {
					case j < 0:
						v.types[i].Reasons = append(v.types[i].Reasons, w)
					case v.types[i].Reasons[j] != w:
						v.err = fmt.Errorf("vocabulary %s: %s %s %s is declared twice with different text (rule %s)", v.kind, typ, w.Status, w.Reason, r.ID)
						return
					}
				}
			}
		}
	}
}

// Rules returns the rule table the vocabulary was read from (FromRules),
// in declaration order; nil when it was listed by hand. The slice is a
// copy; the rules it holds share their Writes with the table.
func (v *Vocabulary) Rules() []Rule { return slices.Clone(v.rules) }

// Recorder collects, while an object's conditions are decided, which rule
// decided each and the evidence each decision read. Explain is Evaluate
// with a Recorder; Evaluate passes nil. Every method does nothing on a
// nil *Recorder, and a caller builds a Fact only when On is true, so the
// path without one allocates nothing.
//
// The evidence is raw (see Provenance): for logs and tools, never a
// status.
type Recorder struct {
	entries []Provenance
}

// On reports whether evidence is being recorded.
func (r *Recorder) On() bool { return r != nil }

// entry is typ's entry, added on first use.
func (r *Recorder) entry(typ string) *Provenance {
	for i := range r.entries {
		if r.entries[i].Type == typ {
			return &r.entries[i]
		}
	}
	r.entries = append(r.entries, Provenance{Type: typ})
	return &r.entries[len(r.entries)-1]
}

// Decided records that v decided the condition of type typ; from names
// the condition it was derived from, "" when none.
func (r *Recorder) Decided(typ, from string, v Verdict) {
	if r == nil || v.Rule == nil {
		return
	}
	p := r.entry(typ)
	p.Rule, p.From = v.Rule.ID, from
}

// Read records facts about obj that the decision of typ read; facts about
// an object already listed join its evidence. The zero ObjectRef stands
// for the evaluation's own inputs.
func (r *Recorder) Read(typ string, obj ObjectRef, facts ...Fact) {
	if r == nil {
		return
	}
	r.entry(typ).Add(obj, facts...)
}

// Provenance returns what was recorded, one entry per type in the order
// the types were first recorded, and starts the recorder afresh. Use
// Vocabulary.Attach to line the entries up with an outcome's conditions.
func (r *Recorder) Provenance() []Provenance {
	if r == nil {
		return nil
	}
	out := r.entries
	r.entries = nil
	for i := range out {
		sortEvidence(&out[i])
	}
	return out
}
