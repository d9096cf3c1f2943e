package binding

import (
	"strconv"
	"time"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/conditions"
)

// recording is what a Binding's decision read and which rule decided each
// of its conditions, kept for Explain in binding's own values while the
// decision runs. Evaluate has none: every method of a nil *recording
// returns at once, and a caller builds a fact only when on is true, so
// the path without one allocates nothing. explain hands the notes to
// conditions once the Binding is merged.
type recording struct {
	notes []note
}

// note is one read (facts about obj) or, when rule is set, one decision
// (rule decided typ, derived from the condition named by from).
type note struct {
	typ   string
	obj   conditions.ObjectRef
	facts []conditions.Fact
	rule  *conditions.Rule
	from  string
}

// on reports whether the decision is being recorded.
func (r *recording) on() bool { return r != nil }

// read notes facts about obj that the decision of typ read. The zero
// ObjectRef stands for the evaluation's own inputs.
func (r *recording) read(typ string, obj conditions.ObjectRef, facts ...conditions.Fact) {
	if r != nil {
		r.notes = append(r.notes, note{typ: typ, obj: obj, facts: facts})
	}
}

// decided notes that v decided the condition of type typ; from names the
// condition it was derived from, "" when none.
func (r *recording) decided(typ, from string, v conditions.Verdict) {
	if r != nil && v.Rule != nil {
		r.notes = append(r.notes, note{typ: typ, rule: v.Rule, from: from})
	}
}

// fact is one field read and its raw value.
func fact(field, value string) conditions.Fact {
	return conditions.Fact{Field: field, Value: value}
}

// intFact is a fact of an integer value.
func intFact(field string, v int64) conditions.Fact {
	return fact(field, strconv.FormatInt(v, 10))
}

// timeFact is a fact of an instant, in RFC 3339 UTC; "unset" for the zero
// time, as conditions.FTime writes it.
func timeFact(field string, t time.Time) conditions.Fact {
	if t.IsZero() {
		return fact(field, "unset")
	}
	return fact(field, t.UTC().Format(time.RFC3339))
}

// explain gives the outcome of the Binding at position i, merged already,
// its provenance: what the decision recorded, handed to a
// conditions.Recorder in the order it was noted and lined up with the
// conditions br carries. A lagging snapshot (the memory serves a newer
// generation) keeps every condition, by the stale-memory rule. The notes
// are emptied for the next Binding.
func (e *evaluator) explain(i int, br *Outcome) {
	o, b := &e.s.Bindings[i], &e.st[i]
	self := ref(akv1.KindBinding, &o.ObjectMeta)
	var rec conditions.Recorder
	for _, n := range e.rec.notes {
		if n.rule != nil {
			rec.Decided(n.typ, n.from, conditions.Verdict{Rule: n.rule})
		} else {
			rec.Read(n.typ, n.obj, n.facts...)
		}
	}
	clear(e.rec.notes)
	e.rec.notes = e.rec.notes[:0]
	out := Vocabulary.Attach(br.Conditions, br.Skip == conditions.SkipStale, self, rec.Provenance())
	if b.staleMemory {
		for k := range out {
			if Vocabulary.Has(out[k].Type) {
				out[k] = conditions.Provenance{Type: out[k].Type, Rule: rules[ruleStaleMemory].ID}
				out[k].Add(self, intFact("metadata.generation", o.Generation), intFact("memory.servedGeneration", b.old.Generation))
			}
		}
	}
	br.Provenance = out
}
