package conditions

import (
	"cmp"
	"slices"
	"strconv"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ktypes "k8s.io/apimachinery/pkg/types"
)

// ObjectRef names an object an evaluation read, as the snapshot held it.
type ObjectRef struct {
	Kind       string     `json:"kind"`
	Namespace  string     `json:"namespace,omitempty"`
	Name       string     `json:"name"`
	UID        ktypes.UID `json:"uid,omitempty"`
	Generation int64      `json:"generation,omitempty"`
}

// String is "Kind namespace/name".
func (r ObjectRef) String() string {
	if r.Namespace == "" {
		return r.Kind + " " + r.Name
	}
	return r.Kind + " " + r.Namespace + "/" + r.Name
}

// Fact is one field an evaluation read and the value that decided.
type Fact struct {
	// Field is the field's path on the object, e.g.
	// metadata.creationTimestamp, or the name of an input that is not a
	// field (probe.backend, memory.servedGeneration).
	Field string `json:"field"`
	// Value is the value read, raw.
	Value string `json:"value"`
}

// Evidence is what one object contributed to a decision. A zero Object
// stands for the evaluation's own inputs (the broker's state, the clock,
// the reads that failed), which are not objects.
type Evidence struct {
	Object ObjectRef `json:"object"`
	Facts  []Fact    `json:"facts,omitempty"`
}

// Provenance says which rule decided one condition and on what evidence.
//
// Evidence is raw: it may name objects of other namespaces, hosts and
// platform errors. It is for logs and tools only (condengine explain);
// never put any of it in a status.
type Provenance struct {
	// Type is the condition type explained.
	Type string `json:"type"`
	// Rule is the ID of the rule that decided it; it is in the kind's
	// rule table.
	Rule string `json:"rule"`
	// From is the condition type this one was derived from (Ready from
	// Accepted, for example); "" when it was decided on its own.
	From string `json:"from,omitempty"`
	// Evidence lists the objects read and the facts that decided, the
	// decided object first.
	Evidence []Evidence `json:"evidence,omitempty"`
}

// Shared rule IDs: what every kind does to conditions it did not decide
// in this evaluation.
const (
	// ruleStaleSnapshot keeps the object's conditions: one describes a
	// newer generation than the snapshot holds.
	ruleStaleSnapshot = "any/stale-snapshot"
	// ruleOtherWriter keeps a condition of a type outside the kind's
	// vocabulary untouched.
	ruleOtherWriter = "any/other-writer"
)

// SharedRules are the rules every kind applies; each kind's table does
// not repeat them.
func SharedRules() []Rule {
	return []Rule{
		{ID: ruleStaleSnapshot, Sentence: "a condition on the object describes a newer generation than the snapshot holds, so every condition is kept as the object carries it and nothing is written"},
		{ID: ruleOtherWriter, Sentence: "a condition of a type the kind does not own belongs to another writer and is kept untouched, after ours"},
	}
}

// Add appends facts about obj to the provenance, joining them to obj's
// evidence when obj is already listed.
func (p *Provenance) Add(obj ObjectRef, facts ...Fact) {
	for i := range p.Evidence {
		if p.Evidence[i].Object == obj {
			p.Evidence[i].Facts = append(p.Evidence[i].Facts, facts...)
			return
		}
	}
	p.Evidence = append(p.Evidence, Evidence{Object: obj, Facts: facts})
}

// F builds a Fact.
func F(field, value string) Fact { return Fact{Field: field, Value: value} }

// FTime builds a Fact of a time, in RFC 3339 UTC; "unset" for the zero
// time.
func FTime(field string, t time.Time) Fact {
	if t.IsZero() {
		return Fact{Field: field, Value: "unset"}
	}
	return Fact{Field: field, Value: t.UTC().Format(time.RFC3339)}
}

// Attach returns one Provenance per condition in conds, in their order:
// the decided one for each of the vocabulary's types, ruleStaleSnapshot
// for all of ours when stale is set, ruleOtherWriter for another
// writer's. self is the object the conditions belong to. A type of ours
// with no decided entry (a bug) gets an entry with an empty Rule, which
// the property tests catch.
func (v *Vocabulary) Attach(conds []metav1.Condition, stale bool, self ObjectRef, decided []Provenance) []Provenance {
	out := make([]Provenance, 0, len(conds))
	for _, c := range conds {
		p := Provenance{Type: c.Type}
		switch {
		case !v.Has(c.Type):
			p.Rule = ruleOtherWriter
			p.Add(self, F("status.conditions["+c.Type+"].reason", c.Reason))
		case stale:
			p.Rule = ruleStaleSnapshot
			p.Add(self, F("metadata.generation", strconv.FormatInt(self.Generation, 10)),
				F("status.conditions["+c.Type+"].observedGeneration", strconv.FormatInt(c.ObservedGeneration, 10)))
		default:
			if i := slices.IndexFunc(decided, func(d Provenance) bool { return d.Type == c.Type }); i >= 0 {
				p = decided[i]
			}
		}
		out = append(out, p)
	}
	return out
}

// sortEvidence orders evidence after the decided object (kept first) by
// kind, namespace and name, so provenance does not depend on the order of
// the snapshot's lists.
func sortEvidence(p *Provenance) {
	if len(p.Evidence) < 3 {
		return
	}
	slices.SortStableFunc(p.Evidence[1:], func(a, b Evidence) int {
		return cmp.Or(cmp.Compare(a.Object.Kind, b.Object.Kind), cmp.Compare(a.Object.Namespace, b.Object.Namespace),
			cmp.Compare(a.Object.Name, b.Object.Name), cmp.Compare(a.Object.UID, b.Object.UID))
	})
}
