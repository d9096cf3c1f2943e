package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/bindingtest"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/explain"
	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/finops/finopstest"
	"github.com/condengine/condengine/manifest"
	"github.com/condengine/condengine/offering"
	"github.com/condengine/condengine/pricebook"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/subscription"
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
	// NotJudged are the condition types whose due value depends on probe
	// results, which a cluster does not hold.
	NotJudged []string `json:"notJudged,omitempty"`

	// due is the due conditions with the decision behind each (for a
	// Binding, those of the evaluation without probe results).
	due explain.Object
	// written is the object's conditions as read.
	written []metav1.Condition
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

// auditInput is what the cluster gave: the objects of both groups as
// JSON, and the targets of Subscriptions that exist.
type auditInput struct {
	now      time.Time
	bindings []json.RawMessage // Bindings, AgentBackends, ChatConnections
	finops   []json.RawMessage // the FinOps kinds and the existing targets
}

// audit compares every object's written conditions with the due ones
// and reports the objects of namespace ("" for all). Every object is
// evaluated whatever namespace is reported, so that references across
// namespaces resolve. Objects is never nil, so an empty report reads
// "objects": [] with -A as with -n.
func audit(in auditInput, namespace string) (Report, error) {
	r := Report{Objects: []ObjectReport{}}
	var all []ObjectReport
	if len(in.bindings) > 0 {
		objs, leftOut, err := auditBindings(in)
		if err != nil {
			return r, err
		}
		all = append(all, objs...)
		for _, e := range leftOut {
			if namespace == "" || e.Namespace == namespace {
				r.LeftOut = append(r.LeftOut, fmt.Sprintf("%s %s left out: %s", e.Kind, manifest.JoinName(e.Namespace, e.Name), e.Problem))
			}
		}
	}
	if len(in.finops) > 0 {
		objs, err := auditFinOps(in)
		if err != nil {
			return r, err
		}
		all = append(all, objs...)
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

// probeWorlds are the probe results a broker might have: none yet, all
// good, all failing. A condition is judged only when all three give it
// the same value.
var probeWorlds = []func(b akv1.Binding) *scenario.Probe{
	func(akv1.Binding) *scenario.Probe { return nil },
	func(b akv1.Binding) *scenario.Probe {
		card := `{"name":"a","version":"1","supportedInterfaces":[{"url":"https://a.example/a2a","protocolBinding":"JSONRPC"}]}`
		yes, no := true, false
		return &scenario.Probe{Binding: b.Namespace + "/" + b.Name, UID: string(b.UID), Generation: b.Generation,
			Backend: &scenario.Observation{HTTP: 200, CardText: &card},
			Channel: &scenario.Observation{OK: true, IsMember: &yes, IsArchived: &no}}
	},
	func(b akv1.Binding) *scenario.Probe {
		return &scenario.Probe{Binding: b.Namespace + "/" + b.Name, UID: string(b.UID), Generation: b.Generation,
			Backend: &scenario.Observation{Error: binding.NetErrorRefused},
			Channel: &scenario.Observation{Error: "channel_not_found"}}
	},
}

// auditBindings evaluates the Bindings once per broker that owns a
// ChatConnection (the broker named in its spec, "" the default), as a
// leader that reads custom resources, has run for a day and remembers
// nothing. Each Binding takes the answer of the first broker that gives
// one: its ChatConnection's owner, or the default broker when the
// connection is missing (every broker answers for such a Binding). A
// Binding no broker answers for (the engine could not use it: missing
// metadata, a repeated UID) is left out of the report and returned with
// its problem.
func auditBindings(in auditInput) ([]ObjectReport, []binding.ObjectError, error) {
	objs, err := binding.DecodeObjects(in.bindings)
	if err != nil {
		return nil, nil, err
	}
	brokers := []string{""}
	for _, c := range objs.Connections {
		if !slices.Contains(brokers, c.Spec.Broker) {
			brokers = append(brokers, c.Spec.Broker)
		}
	}
	// due[world][binding key] = conditions from the first broker that
	// answers; explained[binding key] = the same in the world without
	// probe results, with the decision behind each.
	due := make([]map[key][]metav1.Condition, len(probeWorlds))
	var leftOut []binding.ObjectError
	explained := map[key]explain.Object{}
	for w, probe := range probeWorlds {
		due[w] = map[key][]metav1.Condition{}
		f := &scenario.File{Name: "audit", System: bindingtest.Name, Now: metav1.NewTime(in.now), Objects: in.bindings}
		yes := true
		started := metav1.NewTime(in.now.Add(-24 * time.Hour))
		f.Broker = &scenario.Broker{Leader: &yes, ProberListed: &yes, StartedAt: &started, ConfigSource: string(binding.ConfigSourceCRDs)}
		for _, b := range objs.Bindings {
			if p := probe(b); p != nil {
				f.Probes = append(f.Probes, *p)
			}
		}
		snap, err := bindingtest.Snapshot(f)
		if err != nil {
			return nil, nil, err
		}
		for _, name := range brokers {
			snap.Broker.Name = name
			evaluate := binding.Evaluate
			if w == 0 {
				evaluate = binding.Explain
			}
			r, err := evaluate(snap)
			if err != nil {
				return nil, nil, err
			}
			if w == 0 && leftOut == nil {
				leftOut = r.Errors // the snapshot's, the same for every broker
			}
			for _, o := range r.Bindings {
				k := key{akv1.KindBinding, o.Namespace, o.Name}
				if _, answered := due[w][k]; answered {
					continue
				}
				due[w][k] = o.Conditions
				if w == 0 {
					explained[k] = explain.NewObject(akv1.KindBinding, o.Namespace, o.Name, o.Conditions, o.Provenance, sentences)
				}
			}
		}
	}
	var out []ObjectReport
	for _, b := range objs.Bindings {
		k := key{akv1.KindBinding, b.Namespace, b.Name}
		if _, answered := due[0][k]; !answered {
			continue
		}
		worlds := make([][]metav1.Condition, len(due))
		for w := range due {
			worlds[w] = due[w][k]
		}
		out = append(out, judge(k, b.Status.Conditions, worlds, binding.Vocabulary.Types(), explained[k]))
	}
	return out, leftOut, nil
}

// auditFinOps evaluates the FinOps objects once, at now. FinOps
// conditions need no probe results: every one is judged.
func auditFinOps(in auditInput) ([]ObjectReport, error) {
	snap, err := finops.DecodeObjects(in.finops)
	if err != nil {
		return nil, err
	}
	due, explained, err := explainFinOps(in)
	if err != nil {
		return nil, err
	}
	var out []ObjectReport
	add := func(kind, ns, name string, written []metav1.Condition, types []conditions.Type) {
		k := key{kind, ns, name}
		out = append(out, judge(k, written, [][]metav1.Condition{due[k]}, types, explained[k]))
	}
	for _, b := range snap.PriceBooks {
		add(finopsv1.KindPriceBook, b.Namespace, b.Name, b.Status.Conditions, pricebook.Vocabulary.Types())
	}
	for _, o := range snap.Offerings {
		add(finopsv1.KindOffering, o.Namespace, o.Name, o.Status.Conditions, offering.Vocabulary.Types())
	}
	for _, s := range snap.Subscriptions {
		add(finopsv1.KindSubscription, s.Namespace, s.Name, s.Status.Conditions, subscription.Vocabulary.Types())
	}
	return out, nil
}

// explainFinOps evaluates snap once, with provenance: the due conditions
// of every PriceBook, Offering and Subscription, and the same with their
// decisions. A Subscription's CostsResolved says the collection run is
// missing.
func explainFinOps(in auditInput) (map[key][]metav1.Condition, map[key]explain.Object, error) {
	outs, err := finopstest.Run(&scenario.File{Name: "audit", System: finopstest.Name, Now: metav1.NewTime(in.now), Objects: in.finops}, true)
	if err != nil {
		return nil, nil, err
	}
	objs := explain.FromOutcomes(outs, sentences)
	out := make(map[key]explain.Object, len(objs))
	for _, x := range objs {
		for i := range x.Conditions {
			x.Conditions[i].Missing = missingInputs[x.Kind+"/"+x.Conditions[i].Type]
		}
		out[key{x.Kind, x.Namespace, x.Name}] = x
	}
	// The conditions themselves, messages included, which judge compares.
	due := make(map[key][]metav1.Condition, len(objs))
	for _, o := range outs {
		if o.Computed != nil {
			due[key{o.Kind, o.Namespace, o.Name}] = o.Computed
		}
	}
	return due, out, nil
}

// judge compares written with the due conditions of each world: a type
// every world agrees on is judged, others are listed as not judged. Only
// the types of the kind's vocabulary are looked at; other controllers'
// conditions are theirs.
//
// explained holds the due conditions with their decisions; a drift's Why
// is the decision of its due condition.
func judge(k key, written []metav1.Condition, worlds [][]metav1.Condition, types []conditions.Type, explained explain.Object) ObjectReport {
	r := ObjectReport{Kind: k.kind, Namespace: k.ns, Name: k.name, due: explained, written: written}
	for _, t := range types {
		due := pick(worlds[0], t.Name)
		agreed := true
		for _, w := range worlds[1:] {
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
