package plugin

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/explain"
	"github.com/condengine/condengine/manifest"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
)

// Report is what audit found: every object it judged, in kind,
// namespace, name order.
type Report struct {
	// Objects lists every audited object, with its drift (if any) and the
	// conditions that cannot be judged from a cluster alone.
	Objects []ObjectReport `json:"objects"`
	// Drifted counts the objects with at least one drifted condition.
	Drifted int `json:"drifted"`
	// LeftOut names the objects the engine could not use at all (missing
	// metadata, a repeated UID), each with its problem: they are neither
	// audited nor counted.
	LeftOut []string `json:"leftOut,omitempty"`
}

// ObjectReport is the verdict on one object.
type ObjectReport struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
	// Drift lists each condition whose written value differs from the due
	// one.
	Drift []ConditionDrift `json:"drift,omitempty"`
	// NotJudged are the condition types whose due value depends on
	// inputs a cluster does not hold (a Binding's probe results): the
	// guesses of them disagree.
	NotJudged []string `json:"notJudged,omitempty"`

	// due is the due conditions with the decision behind each (those of
	// the first guess: for a Binding, no probe results yet).
	due explain.Object
	// written is the object's conditions as read.
	written []metav1.Condition
	// unjudged says what a condition not judged depends on, per
	// "Kind/Type" (system.Cluster.Unjudged).
	unjudged map[string]string
}

// ConditionDrift is one condition written otherwise than due.
type ConditionDrift struct {
	Type string `json:"type"`
	// Written and Due are nil when the condition is absent on that side.
	Written *Condition `json:"written"`
	Due     *Condition `json:"due"`
	// Why is the rule that decided the due condition and the evidence it
	// read; nil when nothing is due. The evidence is raw: it may name
	// objects of other namespaces.
	Why *explain.Decision `json:"why,omitempty"`
}

// Condition is the part of a condition audit compares; the transition
// time is left out, since it records when a write happened.
type Condition struct {
	Status             string `json:"status"`
	Reason             string `json:"reason"`
	Message            string `json:"message,omitempty"`
	ObservedGeneration int64  `json:"observedGeneration,omitempty"`
}

// auditInput is what the cluster gave: per system, its objects as JSON
// and the objects they reference that exist.
type auditInput struct {
	now     time.Time
	objects [][]json.RawMessage
}

// audit compares every object's written conditions with the due ones
// and reports the objects of namespace ("" for all). Every object is
// evaluated whatever namespace is reported, so that references across
// namespaces resolve. Objects is never nil, so an empty report reads
// "objects": [] with -A as with -n.
func (e *env) audit(in auditInput, namespace string) (Report, error) {
	r := Report{Objects: []ObjectReport{}}
	var all []ObjectReport
	for i, s := range e.systems {
		if len(in.objects[i]) == 0 {
			continue
		}
		objs, leftOut, err := e.auditSystem(s, in.objects[i], in.now)
		if err != nil {
			return r, err
		}
		all = append(all, objs...)
		for _, l := range leftOut {
			if namespace == "" || l.Namespace == namespace {
				r.LeftOut = append(r.LeftOut, fmt.Sprintf("%s %s left out: %s", l.Kind, manifest.JoinName(l.Namespace, l.Name), l.Problem))
			}
		}
	}
	for _, o := range all {
		if namespace != "" && o.Namespace != namespace {
			continue
		}
		r.Objects = append(r.Objects, o)
		if len(o.Drift) > 0 {
			r.Drifted++
		}
	}
	slices.SortFunc(r.Objects, func(a, b ObjectReport) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	return r, nil
}

type key struct{ kind, ns, name string }

// auditSystem evaluates the objects of system s at now, as its Cluster
// says (once per guess of what the cluster does not hold), or once with
// Run, and judges every object of a kind with conditions that it
// answers for.
func (e *env) auditSystem(s *system.System, objects []json.RawMessage, now time.Time) ([]ObjectReport, []system.LeftOut, error) {
	res, err := evaluateLive(s, objects, now)
	if err != nil {
		return nil, nil, err
	}
	var assumed, unjudged map[string]string
	if s.Cluster != nil {
		assumed, unjudged = s.Cluster.Assumed, s.Cluster.Unjudged
	}
	due := make([]map[key][]metav1.Condition, len(res.Guesses))
	for g, outs := range res.Guesses {
		due[g] = map[key][]metav1.Condition{}
		for _, o := range outs {
			if o.Computed != nil {
				due[g][key{o.Kind, o.Namespace, o.Name}] = o.Computed
			}
		}
	}
	explained := map[key]explain.Object{}
	if len(res.Guesses) > 0 {
		for _, x := range explain.FromOutcomes(res.Guesses[0], e.sentences) {
			for i := range x.Conditions {
				x.Conditions[i].Missing = assumed[x.Kind+"/"+x.Conditions[i].Type]
			}
			explained[key{x.Kind, x.Namespace, x.Name}] = x
		}
	}
	var out []ObjectReport
	for _, raw := range objects {
		var o struct {
			Kind     string `json:"kind"`
			Metadata struct {
				Namespace string `json:"namespace"`
				Name      string `json:"name"`
			} `json:"metadata"`
			Status struct {
				Conditions []metav1.Condition `json:"conditions"`
			} `json:"status"`
		}
		if json.Unmarshal(raw, &o) != nil {
			continue // the system's evaluation read it: it answers for nothing it could not
		}
		k := key{o.Kind, o.Metadata.Namespace, o.Metadata.Name}
		kind, ok := s.Kind(o.Kind)
		if _, answered := due[0][k]; !ok || kind.Vocabulary == nil || !answered {
			continue
		}
		guesses := make([][]metav1.Condition, len(due))
		for g := range due {
			guesses[g] = due[g][k]
		}
		r := judge(k, o.Status.Conditions, guesses, kind.Vocabulary.Types(), explained[k])
		r.unjudged = unjudged
		out = append(out, r)
	}
	return out, res.LeftOut, nil
}

// evaluateLive is the system's evaluation of a cluster's objects: its
// Cluster's, or one Run with explain, whose outcomes are the only guess.
func evaluateLive(s *system.System, objects []json.RawMessage, now time.Time) (system.ClusterResult, error) {
	if s.Cluster != nil && s.Cluster.Evaluate != nil {
		return s.Cluster.Evaluate(objects, now)
	}
	if s.Run == nil {
		return system.ClusterResult{}, fmt.Errorf("system %q has no Run", s.Name)
	}
	outs, err := s.Run(&scenario.File{Name: "audit", System: s.Name, Now: metav1.NewTime(now), Objects: objects}, true)
	if err != nil {
		return system.ClusterResult{}, err
	}
	return system.ClusterResult{Guesses: [][]scenario.Outcome{outs}}, nil
}

// judge compares written with the due conditions of each guess: a type
// every guess agrees on is judged, others are listed as not judged. Only
// the types of the kind's vocabulary are looked at; other controllers'
// conditions are theirs.
//
// explained holds the due conditions with their decisions; a drift's Why
// is the decision of its due condition.
func judge(k key, written []metav1.Condition, guesses [][]metav1.Condition, types []conditions.Type, explained explain.Object) ObjectReport {
	r := ObjectReport{Kind: k.kind, Namespace: k.ns, Name: k.name, due: explained, written: written}
	for _, t := range types {
		due := pick(guesses[0], t.Name)
		agreed := true
		for _, w := range guesses[1:] {
			if !equalCond(due, pick(w, t.Name)) {
				agreed = false
			}
		}
		if !agreed {
			r.NotJudged = append(r.NotJudged, t.Name)
			continue
		}
		if got := pick(written, t.Name); !equalCond(got, due) {
			d := ConditionDrift{Type: t.Name, Written: got, Due: due}
			if c := explained.Find(t.Name); c != nil {
				d.Why = &c.Decision
			}
			r.Drift = append(r.Drift, d)
		}
	}
	return r
}

// pick is the part audit compares of the condition of type typ in cs;
// nil when cs has none.
func pick(cs []metav1.Condition, typ string) *Condition {
	c := conditions.Find(cs, typ)
	if c == nil {
		return nil
	}
	return &Condition{Status: string(c.Status), Reason: c.Reason, Message: c.Message, ObservedGeneration: c.ObservedGeneration}
}

func equalCond(a, b *Condition) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func (c *Condition) String() string {
	if c == nil {
		return "(absent)"
	}
	return fmt.Sprintf("%s/%s (gen %d)", c.Status, c.Reason, c.ObservedGeneration)
}
