package explain

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/manifest"
)

// Object is one object's conditions, each with the decision behind it.
type Object struct {
	Kind       string      `json:"kind"`
	Namespace  string      `json:"namespace"`
	Name       string      `json:"name"`
	Conditions []Condition `json:"conditions"`
}

// Condition is one condition as the engine decided it, and why. An empty
// Status stands for a condition that is not on the object and could not
// be decided (see Decision.Missing).
type Condition struct {
	Type               string                 `json:"type"`
	Status             metav1.ConditionStatus `json:"status"`
	Reason             string                 `json:"reason"`
	ObservedGeneration int64                  `json:"observedGeneration"`
	Decision
}

// Decision is the rule that decided a condition and the evidence it
// read. Its evidence is raw: it may name other namespaces' objects and
// hosts, so it belongs in logs and tools, never in a status.
type Decision struct {
	// Rule is the ID of the rule in the rule table; "" when the condition
	// could not be decided from the inputs at hand (see Missing).
	Rule string `json:"rule"`
	// Sentence is the rule's one-line description from the table.
	Sentence string `json:"sentence"`
	// From is the condition type this one was derived from, if any.
	From string `json:"from,omitempty"`
	// Evidence lists the objects read and the facts that decided, the
	// decided object first.
	Evidence []conditions.Evidence `json:"evidence"`
	// Missing names the inputs the explanation was made without and what
	// that leaves open; "" when the evaluation had all it reads. A tool
	// that evaluates less than the engine's full input sets it (a live
	// cluster holds no probe results).
	Missing string `json:"missing,omitempty"`
}

// Sentences maps every rule ID of a rule table to its sentence.
func Sentences(rules []conditions.Rule) map[string]string {
	out := make(map[string]string, len(rules))
	for _, r := range rules {
		out[r.ID] = r.Sentence
	}
	return out
}

// NewObject pairs each of conds with its provenance, as an Explain
// function returns them (one entry per condition, in the same order), and
// with its rule's sentence from sentences. A condition whose provenance
// is missing or of another type gets an empty Decision.
func NewObject(kind, namespace, name string, conds []metav1.Condition, prov []conditions.Provenance, sentences map[string]string) Object {
	x := Object{Kind: kind, Namespace: namespace, Name: name, Conditions: make([]Condition, 0, len(conds))}
	for i, c := range conds {
		ec := Condition{Type: c.Type, Status: c.Status, Reason: c.Reason, ObservedGeneration: c.ObservedGeneration}
		if i < len(prov) && prov[i].Type == c.Type {
			p := prov[i]
			ec.Decision = Decision{Rule: p.Rule, Sentence: sentences[p.Rule], From: p.From, Evidence: p.Evidence}
		}
		x.Conditions = append(x.Conditions, ec)
	}
	return x
}

// Find returns the condition of type typ, or nil.
func (x *Object) Find(typ string) *Condition {
	for i := range x.Conditions {
		if x.Conditions[i].Type == typ {
			return &x.Conditions[i]
		}
	}
	return nil
}

// WriteJSON writes objs as one indented JSON array.
func WriteJSON(w io.Writer, objs []Object) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(objs)
}

// WriteTree prints each object's conditions as short trees, objects
// apart by a blank line:
//
//	Kind namespace/name
//	  Type=Status Reason (observedGeneration N)
//	    ← derived from Type
//	    ← rule ID: sentence
//	      ← Kind namespace/name (uid U, generation G)
//	          field: value
func WriteTree(w io.Writer, objs []Object) error {
	ew := &errWriter{w: w}
	for k, x := range objs {
		if k > 0 {
			ew.printf("\n")
		}
		ew.printf("%s %s\n", x.Kind, manifest.JoinName(x.Namespace, x.Name))
		if len(x.Conditions) == 0 {
			ew.printf("  (no conditions)\n")
		}
		for _, c := range x.Conditions {
			if c.Status == "" {
				ew.printf("  %s (absent)\n", c.Type)
			} else {
				ew.printf("  %s=%s %s (observedGeneration %d)\n", c.Type, c.Status, c.Reason, c.ObservedGeneration)
			}
			c.Decision.write(ew, "    ")
		}
	}
	return ew.err
}

// WriteTree prints the decision's lines, each after indent: the
// condition it was derived from, the inputs it lacked, the rule, and the
// evidence below the rule. The tree of an Object prints the same lines
// under each condition.
func (d Decision) WriteTree(w io.Writer, indent string) error {
	ew := &errWriter{w: w}
	d.write(ew, indent)
	return ew.err
}

func (d Decision) write(ew *errWriter, indent string) {
	if d.From != "" {
		ew.printf("%s← derived from %s\n", indent, d.From)
	}
	if d.Missing != "" {
		ew.printf("%s← missing input: %s\n", indent, oneLine(d.Missing))
		if d.Rule == "" {
			return
		}
	}
	ew.printf("%s← rule %s: %s\n", indent, d.Rule, d.Sentence)
	for _, ev := range d.Evidence {
		ew.printf("%s  ← %s\n", indent, DescribeObject(ev.Object))
		for _, f := range ev.Facts {
			ew.printf("%s      %s: %s\n", indent, f.Field, oneLine(f.Value))
		}
	}
}

// DescribeObject is "Kind namespace/name (uid U, generation G)", leaving
// out what the reference lacks; a zero reference is the evaluation's own
// inputs.
func DescribeObject(r conditions.ObjectRef) string {
	if r == (conditions.ObjectRef{}) {
		return "the evaluation's inputs"
	}
	s := r.String()
	var ids []string
	if r.UID != "" {
		ids = append(ids, "uid "+string(r.UID))
	}
	if r.Generation != 0 {
		ids = append(ids, "generation "+strconv.FormatInt(r.Generation, 10))
	}
	if len(ids) > 0 {
		s += " (" + strings.Join(ids, ", ") + ")"
	}
	return s
}

// errWriter keeps the first write error and skips writing after it.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}

// oneLine folds every run of white space, line breaks included, into
// one space, so a raw value cannot break the tree.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
