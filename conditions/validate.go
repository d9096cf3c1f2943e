package conditions

import (
	"fmt"

	"github.com/condengine/condengine/redact"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// maxMessageBytes is the longest message the engines write. The API
// server allows 32 KiB; the house rule is stricter.
const maxMessageBytes = redact.DefaultMaxBytes

// FitMessage makes s fit the house rule for condition messages: one line,
// valid UTF-8, at most maxMessageBytes bytes, with "…" where cut. It hides
// nothing: an engine assembles messages from the object's own text, shown
// whole, and passes each
// part taken from another object through redact.Message first.
func FitMessage(s string) string { return redact.Fit(s, maxMessageBytes) }

// Validate checks a condition list of this kind, as it would be written
// to an object whose metadata.generation is generation. It runs
// apimachinery's ValidateConditions and then the vocabulary's own rules:
//
//   - each condition of the vocabulary's types has a (status, reason)
//     pair the vocabulary lists;
//   - observedGeneration is not above generation;
//   - the message is one line of valid UTF-8 of at most maxMessageBytes
//     (and empty on True when the vocabulary says so);
//   - the vocabulary's types appear in its order;
//   - when any condition of the vocabulary is present, every Required
//     type is present.
//
// Conditions of other types are checked only by ValidateConditions. The
// errors carry field paths under fldPath (e.g. status.conditions[2].reason).
func (v *Vocabulary) Validate(conds []metav1.Condition, generation int64, fldPath *field.Path) field.ErrorList {
	errs := metav1validation.ValidateConditions(conds, fldPath)
	present := make(map[string]bool, len(v.types))
	last := -1
	for i, c := range conds {
		t, ours := v.order[c.Type]
		if !ours {
			continue
		}
		p := fldPath.Index(i)
		if present[c.Type] {
			continue // ValidateConditions reported the duplicate
		}
		present[c.Type] = true
		if t < last {
			errs = append(errs, field.Invalid(p.Child("type"), c.Type,
				fmt.Sprintf("must come before %s", v.types[last].Name)))
		}
		last = max(last, t)
		if _, ok := v.Lookup(c.Type, c.Status, c.Reason); !ok {
			errs = append(errs, field.NotSupported(p.Child("reason"), c.Reason, v.reasonNames(t, c.Status)))
		}
		if c.ObservedGeneration > generation {
			errs = append(errs, field.Invalid(p.Child("observedGeneration"), c.ObservedGeneration,
				fmt.Sprintf("must not be above metadata.generation (%d)", generation)))
		}
		if problem := MessageProblem(c.Message); problem != "" {
			errs = append(errs, field.Invalid(p.Child("message"), truncateForError(c.Message), problem))
		}
		if v.emptyMessageWhenTrue && c.Status == metav1.ConditionTrue && c.Message != "" {
			errs = append(errs, field.Invalid(p.Child("message"), truncateForError(c.Message), "must be empty when status is True"))
		}
	}
	if len(present) > 0 {
		for _, t := range v.types {
			if t.Required && !present[t.Name] {
				errs = append(errs, field.Required(fldPath, fmt.Sprintf("condition %s must be present", t.Name)))
			}
		}
	}
	return errs
}

// reasonNames lists the reasons the vocabulary allows for a type and
// status, for NotSupported errors.
func (v *Vocabulary) reasonNames(t int, status metav1.ConditionStatus) []string {
	var out []string
	for _, r := range v.types[t].Reasons {
		if r.Status == status {
			out = append(out, r.Reason)
		}
	}
	if out == nil {
		out = []string{fmt.Sprintf("(no reason allows status %q)", status)}
	}
	return out
}

// MessageProblem says what is wrong with a message under the house rule
// (one line, valid UTF-8, at most maxMessageBytes), or "" when nothing is.
// The rule itself lives in package redact; this adapts it to field errors.
func MessageProblem(msg string) string {
	if err := redact.Check(msg, maxMessageBytes); err != nil {
		return err.Error()
	}
	return ""
}

// truncateForError keeps an error's echo of a bad message short.
func truncateForError(s string) string { return redact.Clip(s, 64) }
