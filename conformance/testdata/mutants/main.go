// Command mutants is `condengine reference` with one planted bug: it
// answers the conform protocol as the engine does, except as the bug
// named by its first argument says. Each bug is one a real author of
// another implementation makes; the conformance test of the mutants
// (TestConform_CatchesPlantedBugs in cmd/cli) runs `condengine
// conform` against each and reports which it catches.
//
//	go build -o mutants ./conformance/testdata/mutants
//	condengine conform --system binding --exec "./mutants rare-reason-renamed binding"
//
// Without arguments it lists the bugs, one per line: name, system, what
// the bug is.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/billing"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
)

// bug is one planted mistake: pre changes the request before the engine
// answers it (a mistake in what the implementation reads), post changes
// the answer (a mistake in what it writes), raw the answer line. decide,
// run after post, changes the answer from what the engine decides for
// the request: its outcomes, and its answers to other requests.
type bug struct {
	name, system, what string
	pre                func(f *scenario.File)
	post               func(f *scenario.File, objs []conformance.Object)
	decide             func(e engine, f *scenario.File, objs []conformance.Object)
	raw                func(line []byte) []byte
}

// engine is what a bug may ask the engine besides its answer.
type engine struct{ sys *system.System }

// outcomes are the engine's outcomes of f, the reasons not to write
// included.
func (e engine) outcomes(f *scenario.File) []scenario.Outcome {
	outs, err := e.sys.Run(f, false)
	if err != nil {
		return nil
	}
	return outs
}

// answer is the engine's answer to f; nil when it refuses f.
func (e engine) answer(f *scenario.File) []conformance.Object {
	objs, err := conformance.Reference(e.sys)(f)
	if err != nil {
		return nil
	}
	return objs
}

var bugs = []bug{
	{name: "rare-reason-renamed", system: "binding", what: "Accepted NamespaceNotAllowed is spelt NamespaceForbidden",
		post: func(_ *scenario.File, objs []conformance.Object) {
			eachCondition(objs, func(_ *conformance.Object, c *metav1.Condition) {
				c.Reason = strings.Replace(c.Reason, "NamespaceNotAllowed", "NamespaceForbidden", 1)
			})
		}},
	{name: "ready-reason-unprefixed", system: "binding", what: "Ready carries the failing condition's reason without its type (BackendNotFound, not Accepted:BackendNotFound)",
		post: func(_ *scenario.File, objs []conformance.Object) {
			eachCondition(objs, func(_ *conformance.Object, c *metav1.Condition) {
				if _, r, ok := strings.Cut(c.Reason, ":"); ok && c.Type == "Ready" {
					c.Reason = r
				}
			})
		}},
	{name: "writes-while-standby", system: "binding", what: "a replica that does not hold the lease writes anyway",
		pre: func(f *scenario.File) {
			if f.Broker != nil && f.Broker.Leader != nil && !*f.Broker.Leader {
				yes := true
				f.Broker.Leader = &yes
			}
		}},
	{name: "ignores-configmap-route", system: "binding", what: "a broker configured from the ConfigMap still writes Binding status",
		pre: func(f *scenario.File) {
			if f.Broker != nil && f.Broker.ConfigSource == "configmap" {
				f.Broker.ConfigSource = "crds"
			}
		}},
	{name: "forbidden-is-transient", system: "binding", what: "an HTTP 403 from the agent card is treated as a server error",
		pre: func(f *scenario.File) {
			for i := range f.Probes {
				if b := f.Probes[i].Backend; b != nil && b.HTTP == 403 {
					b.HTTP = 503
				}
			}
		}},
	{name: "stale-conditions-overwritten", system: "binding", what: "a condition of a newer generation than the object's is recomputed instead of kept",
		pre: func(f *scenario.File) {
			editObjects(f, func(m map[string]any) {
				gen := num(dig(m, "metadata", "generation"))
				for _, c := range list(dig(m, "status", "conditions")) {
					if cm, ok := c.(map[string]any); ok && num(cm["observedGeneration"]) > gen {
						cm["observedGeneration"] = gen
					}
				}
			})
		}},
	{name: "foreign-conditions-dropped", system: "binding", what: "conditions of other controllers are dropped on write",
		post: func(_ *scenario.File, objs []conformance.Object) {
			for i := range objs {
				objs[i].Conditions = slices.DeleteFunc(objs[i].Conditions, func(c metav1.Condition) bool {
					return !slices.Contains([]string{"Accepted", "BackendReachable", "ChannelJoined", "Ready"}, c.Type)
				})
			}
		}},
	{name: "tiebreak-skips-namespace", system: "binding", what: "two claims of one channel made in the same second are ordered by name, the namespace skipped",
		post: tiebreakByName},
	{name: "transition-time-always-now", system: "binding", what: "lastTransitionTime is set to now on every write, even when the status did not change",
		post: func(f *scenario.File, objs []conformance.Object) {
			eachCondition(objs, func(o *conformance.Object, c *metav1.Condition) {
				if o.Write != nil && *o.Write {
					c.LastTransitionTime = f.Now
				}
			})
		}},
	{name: "conditions-sorted-by-type", system: "finops", what: "conditions are written sorted by type",
		post: func(_ *scenario.File, objs []conformance.Object) {
			for i := range objs {
				slices.SortStableFunc(objs[i].Conditions, func(a, b metav1.Condition) int { return strings.Compare(a.Type, b.Type) })
			}
		}},
	{name: "empty-message-omitted", system: "binding", what: "an empty message is left out of the condition (omitempty)",
		raw: func(line []byte) []byte { return bytes.ReplaceAll(line, []byte(`,"message":""`), nil) }},
	{name: "writes-when-unchanged", system: "binding", what: "a Binding whose status is already as computed is written again",
		decide: func(e engine, f *scenario.File, objs []conformance.Object) {
			eachUnchanged(e, f, objs, func(*conformance.Object, scenario.Outcome) bool { return true })
		}},
	{name: "writes-reordered", system: "finops", what: "a status whose own conditions stand out of vocabulary order is written to put them in order",
		decide: func(e engine, f *scenario.File, objs []conformance.Object) {
			eachUnchanged(e, f, objs, func(o *conformance.Object, out scenario.Outcome) bool {
				k, _ := e.sys.Kind(o.Kind)
				last := -1
				for _, c := range out.Conditions {
					if i := k.Vocabulary.Index(c.Type); i >= 0 {
						if i < last {
							return true
						}
						last = i
					}
				}
				return false
			})
		}},
	{name: "retry-a-second-late", system: "binding", what: "a held write is retried one second after the instant its wait ends",
		post: func(_ *scenario.File, objs []conformance.Object) {
			for i := range objs {
				if at := objs[i].RetryAt; at != nil {
					later := at.Add(time.Second)
					objs[i].RetryAt = &later
				}
			}
		}},
	{name: "finalizer-released-an-hour-early", system: "finops", what: "a deleted Subscription's finalizer is released by a run in the hour that holds deactivatedAt, before that hour is settled",
		decide: releasedAnHourEarly},
	{name: "leap-february-has-28-days", system: "finops", what: "the month bucket of a leap February ends on the 29th, as if every February had 28 days",
		post: shortFebruary},
	{name: "backend-found-in-other-namespace", system: "binding", what: "backendRef is looked up by name only, so a same-named AgentBackend of another namespace is found",
		pre: lookupByNameOnly},
	{name: "loop-printed-rotated", system: "finops", what: "a requirement loop is printed from another member than the engine's first",
		post: func(_ *scenario.File, objs []conformance.Object) {
			eachCondition(objs, func(_ *conformance.Object, c *metav1.Condition) { c.Message = rotateLoop(c.Message) })
		}},
	{name: "number-through-float", system: "finops", what: "status numbers and observedGeneration pass through a float64",
		post: func(_ *scenario.File, objs []conformance.Object) {
			for i := range objs {
				objs[i].Status = throughFloat(objs[i].Status)
				for j := range objs[i].Conditions {
					c := &objs[i].Conditions[j]
					c.ObservedGeneration = int64(float64(c.ObservedGeneration))
				}
			}
		}},
	{name: "finalizer-never-removed", system: "finops", what: "the finalizer is never removed",
		post: func(_ *scenario.File, objs []conformance.Object) {
			for i := range objs {
				no := false
				objs[i].RemoveFinalizer = &no
			}
		}},
	{name: "finalizer-removed-before-collection", system: "finops", what: "a deleted Subscription's finalizer is removed without waiting for the collection run",
		post: func(_ *scenario.File, objs []conformance.Object) {
			eachCondition(objs, func(o *conformance.Object, c *metav1.Condition) {
				if o.Kind == "Subscription" && c.Reason == "WaitingForCollectionJob" {
					yes := true
					o.RemoveFinalizer = &yes
				}
			})
		}},
	{name: "rare-finops-reason-renamed", system: "finops", what: "Active ParentDeactivated is spelt ParentEnded",
		post: func(_ *scenario.File, objs []conformance.Object) {
			eachCondition(objs, func(_ *conformance.Object, c *metav1.Condition) {
				if c.Reason == "ParentDeactivated" {
					c.Reason = "ParentEnded"
				}
			})
		}},
	{name: "pricebook-forgets-incumbent", system: "finops", what: "the election reads no incumbent: status.active of the books is ignored",
		pre: func(f *scenario.File) {
			editObjects(f, func(m map[string]any) {
				if m["kind"] == "PriceBook" {
					if st, ok := m["status"].(map[string]any); ok {
						delete(st, "active")
					}
				}
			})
		}},
	{name: "dependent-offerings-ignored", system: "finops", what: "a deleted Offering only looks for dependent Subscriptions, not Offerings",
		post: func(_ *scenario.File, objs []conformance.Object) {
			eachCondition(objs, func(o *conformance.Object, c *metav1.Condition) {
				if o.Kind == "Offering" && c.Reason == "DependentOfferingsExist" {
					c.Status, c.Reason, c.Message = metav1.ConditionTrue, "DeletionAllowed", ""
					yes := true
					o.RemoveFinalizer = &yes
				}
			})
		}},
	{name: "message-cut-at-wrong-byte", system: "binding", what: "a long message is cut one character short of the limit",
		post: func(_ *scenario.File, objs []conformance.Object) {
			eachCondition(objs, func(_ *conformance.Object, c *metav1.Condition) {
				if m, ok := strings.CutSuffix(c.Message, "…"); ok && len(c.Message) > 900 {
					_, n := utf8.DecodeLastRuneInString(m)
					c.Message = m[:len(m)-n] + "…"
				}
			})
		}},
	{name: "deletion-time-must-be-now", system: "finops", what: "a Subscription counts as deleted only when its deletionTimestamp is not before now",
		pre: func(f *scenario.File) {
			editObjects(f, func(m map[string]any) {
				if m["kind"] != "Subscription" {
					return
				}
				md, _ := m["metadata"].(map[string]any)
				if s, ok := md["deletionTimestamp"].(string); ok {
					if t, err := time.Parse(time.RFC3339, s); err == nil && t.Before(f.Now.Time) {
						delete(md, "deletionTimestamp")
					}
				}
			})
		}},
}

func main() {
	if len(os.Args) < 3 {
		for _, b := range bugs {
			fmt.Printf("%s\t%s\t%s\n", b.name, b.system, b.what)
		}
		return
	}
	var b *bug
	for i := range bugs {
		if bugs[i].name == os.Args[1] {
			b = &bugs[i]
		}
	}
	if b == nil {
		fmt.Fprintf(os.Stderr, "mutants: no bug %q\n", os.Args[1])
		os.Exit(2)
	}
	sys, err := system.Find(os.Args[2], conformance.SeedSystems()...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		os.Exit(2)
	}
	reference := conformance.Reference(sys)
	fmt.Printf(`{"capabilities":["write","removeFinalizer","retryAt"]}` + "\n")
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		line, err := in.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) == 0 {
			if err != nil {
				return
			}
			continue
		}
		id, f, err := conformance.DecodeRequest(bytes.TrimSuffix(line, []byte("\n")), sys.Name)
		if err != nil || id == nil {
			fmt.Fprintln(os.Stderr, "mutants:", err)
			os.Exit(1)
		}
		asked := *f
		if b.pre != nil {
			b.pre(f)
		}
		objs, err := reference(f)
		if err != nil {
			// The bug made a request the engine refuses: answer the
			// request as asked.
			objs, err = reference(&asked)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "mutants:", err)
			os.Exit(1)
		}
		if b.post != nil {
			b.post(f, objs)
		}
		if b.decide != nil {
			b.decide(engine{sys}, f, objs)
		}
		out, _ := conformance.EncodeReply(*id, objs, nil)
		if b.raw != nil {
			out = b.raw(out)
		}
		os.Stdout.Write(append(out, '\n'))
	}
}

func eachCondition(objs []conformance.Object, fn func(*conformance.Object, *metav1.Condition)) {
	for i := range objs {
		for j := range objs[i].Conditions {
			fn(&objs[i], &objs[i].Conditions[j])
		}
	}
}

// editObjects lets fn change each manifest of the request as a map.
func editObjects(f *scenario.File, fn func(map[string]any)) {
	for i, raw := range f.Objects {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var m map[string]any
		if dec.Decode(&m) != nil {
			continue
		}
		fn(m)
		if out, err := json.Marshal(m); err == nil {
			f.Objects[i] = out
		}
	}
}

// dig is the value at path in a decoded object, nil where the path
// ends early or crosses a value that is not an object.
func dig(m map[string]any, path ...string) any {
	v, _, _ := unstructured.NestedFieldNoCopy(m, path...)
	return v
}

func list(v any) []any { l, _ := v.([]any); return l }

func num(v any) int64 {
	switch x := v.(type) {
	case json.Number:
		n, _ := x.Int64()
		return n
	case int64:
		return x
	}
	return 0
}

func str(v any) string { s, _ := v.(string); return s }

// tiebreakByName orders two claims of one channel made at the same
// instant by name alone: where that makes the loser the holder, the two
// Bindings' Accepted and Ready conditions are swapped.
func tiebreakByName(f *scenario.File, objs []conformance.Object) {
	type claim struct {
		ns, name, channel, created string
	}
	claims := map[string]claim{}
	for _, raw := range f.Objects {
		var m map[string]any
		if json.Unmarshal(raw, &m) != nil || m["kind"] != "Binding" {
			continue
		}
		c := claim{str(dig(m, "metadata", "namespace")), str(dig(m, "metadata", "name")),
			str(dig(m, "spec", "chat", "channel")), str(dig(m, "metadata", "creationTimestamp"))}
		claims[c.ns+"/"+c.name] = c
	}
	find := func(o *conformance.Object, typ string) *metav1.Condition {
		for i := range o.Conditions {
			if o.Conditions[i].Type == typ {
				return &o.Conditions[i]
			}
		}
		return nil
	}
	for i := range objs {
		h := &objs[i]
		ha := find(h, "Accepted")
		if ha == nil || ha.Status != metav1.ConditionTrue {
			continue
		}
		hc := claims[h.Namespace+"/"+h.Name]
		for j := range objs {
			l := &objs[j]
			la := find(l, "Accepted")
			lc := claims[l.Namespace+"/"+l.Name]
			if la == nil || la.Reason != "ChannelConflict" || lc.channel != hc.channel || lc.created != hc.created ||
				lc.ns == hc.ns || lc.name >= hc.name {
				continue
			}
			*ha, *la = *la, *ha
			ha.Type, la.Type = "Accepted", "Accepted"
			if hr, lr := find(h, "Ready"), find(l, "Ready"); hr != nil && lr != nil {
				*hr, *lr = *lr, *hr
			}
			return
		}
	}
}

// lookupByNameOnly points a Binding's backendRef that names no
// AgentBackend where it looks at a same-named one in another namespace.
func lookupByNameOnly(f *scenario.File) {
	where := map[string][]string{} // backend name -> namespaces
	for _, raw := range f.Objects {
		var m map[string]any
		if json.Unmarshal(raw, &m) == nil && m["kind"] == "AgentBackend" {
			n := str(dig(m, "metadata", "name"))
			where[n] = append(where[n], str(dig(m, "metadata", "namespace")))
		}
	}
	editObjects(f, func(m map[string]any) {
		if m["kind"] != "Binding" {
			return
		}
		ref, ok := dig(m, "spec", "agent", "backendRef").(map[string]any)
		if !ok {
			return
		}
		ns := str(ref["namespace"])
		if ns == "" {
			ns = str(dig(m, "metadata", "namespace"))
		}
		nss := where[str(ref["name"])]
		if len(nss) > 0 && !slices.Contains(nss, ns) {
			slices.Sort(nss)
			ref["namespace"] = nss[0]
		}
	})
}

// rotateLoop starts a printed loop "a -> b -> c -> a" at its second
// member: "b -> c -> a -> b".
func rotateLoop(msg string) string {
	head, loop, ok := strings.Cut(msg, "loop: ")
	if !ok {
		return msg
	}
	rest := ""
	if i := strings.IndexAny(loop, ";("); i >= 0 {
		loop, rest = loop[:i], loop[i:]
	}
	parts := strings.Split(strings.TrimSpace(loop), " -> ")
	if len(parts) < 3 {
		return msg
	}
	members := parts[:len(parts)-1]
	rot := append(slices.Clone(members[1:]), members[0], members[1])
	out := head + "loop: " + strings.Join(rot, " -> ")
	if rest != "" {
		out += " " + rest
	}
	return out
}

// throughFloat sends every number of a status object through a float64.
func throughFloat(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return raw
	}
	var v any
	if json.Unmarshal(raw, &v) != nil { // numbers become float64
		return raw
	}
	out, err := json.Marshal(floats(v))
	if err != nil {
		return raw
	}
	return out
}

func floats(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k := range x {
			x[k] = floats(x[k])
		}
	case []any:
		for i := range x {
			x[i] = floats(x[i])
		}
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e19 {
			return json.Number(fmt.Sprintf("%.0f", x))
		}
	}
	return v
}

// eachUnchanged sets write on every object of objs whose status the
// engine leaves as it stands because it is already as computed (and
// written by this replica: no other reason not to write), where wrong
// says so.
func eachUnchanged(e engine, f *scenario.File, objs []conformance.Object, wrong func(*conformance.Object, scenario.Outcome) bool) {
	for _, out := range e.outcomes(f) {
		if out.Skip != conditions.SkipUnchanged {
			continue
		}
		for i := range objs {
			if o := &objs[i]; o.Kind == out.Kind && o.Namespace == out.Namespace && o.Name == out.Name && wrong(o, out) {
				yes := true
				o.Write = &yes
			}
		}
	}
}

// releasedAnHourEarly asks the engine again with every Subscription's
// deactivatedAt an hour earlier, which is the gate that waits for the
// run of the hour holding deactivatedAt rather than the next, and takes
// only the finalizer's release from that answer.
func releasedAnHourEarly(e engine, f *scenario.File, objs []conformance.Object) {
	raw, err := json.Marshal(f)
	if err != nil {
		return
	}
	var early scenario.File
	if json.Unmarshal(raw, &early) != nil {
		return
	}
	editObjects(&early, func(m map[string]any) {
		st, _ := m["status"].(map[string]any)
		if m["kind"] != "Subscription" || st == nil {
			return
		}
		if at, err := time.Parse(time.RFC3339, str(st["deactivatedAt"])); err == nil {
			st["deactivatedAt"] = at.Add(-time.Hour).Format(time.RFC3339)
		}
	})
	for _, o := range e.answer(&early) {
		if o.Kind != "Subscription" || o.RemoveFinalizer == nil || !*o.RemoveFinalizer {
			continue
		}
		for i := range objs {
			if objs[i].Kind == o.Kind && objs[i].Namespace == o.Namespace && objs[i].Name == o.Name {
				yes := true
				objs[i].RemoveFinalizer = &yes
			}
		}
	}
}

// shortFebruary ends the month bucket of a leap February on the 29th,
// its projected fee counted over that shorter month.
func shortFebruary(f *scenario.File, objs []conformance.Object) {
	subs, offs := map[string]map[string]any{}, map[string]map[string]any{}
	for _, raw := range f.Objects {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var m map[string]any
		if dec.Decode(&m) != nil {
			continue
		}
		key := str(dig(m, "metadata", "namespace")) + "/" + str(dig(m, "metadata", "name"))
		switch m["kind"] {
		case "Subscription":
			subs[key] = m
		case "Offering":
			offs[key] = m
		}
	}
	for i := range objs {
		o := &objs[i]
		if o.Kind != "Subscription" || len(o.Status) == 0 {
			continue
		}
		var st map[string]json.RawMessage
		var costs []finopsv1.CostBucket
		if json.Unmarshal(o.Status, &st) != nil || json.Unmarshal(st["costs"], &costs) != nil {
			continue
		}
		changed := false
		for j := range costs {
			b := &costs[j]
			start := b.Start.UTC()
			if b.Granularity != finopsv1.GranularityMonth || start.Month() != time.February || time.Date(start.Year(), 2, 29, 0, 0, 0, 0, time.UTC).Month() != time.February {
				continue
			}
			b.EndExclusive = metav1.NewTime(start.AddDate(0, 0, 28))
			changed = true
			sched, ok := feeSchedule(subs[o.Namespace+"/"+o.Name], offs)
			if !ok {
				continue
			}
			projected, err := sched.Fee(start, b.EndExclusive.Time)
			if err != nil {
				continue
			}
			b.Projected = projected
			for k := range b.Breakdown {
				if b.Breakdown[k].Name == billing.SubscriptionMeter {
					b.Breakdown[k].Projected = projected
				}
			}
			b.Breakdown = slices.DeleteFunc(b.Breakdown, func(m finopsv1.CostMetric) bool {
				return m.Name == billing.SubscriptionMeter && m.Current == 0 && m.Projected == 0
			})
		}
		if !changed {
			continue
		}
		if raw, err := json.Marshal(costs); err == nil {
			st["costs"] = raw
			if out, err := json.Marshal(st); err == nil {
				o.Status = out
			}
		}
	}
}

// feeSchedule is the fee grid of the Subscription sub as the request
// holds it: its Offering's fee from its activation, cut at its
// deactivation.
func feeSchedule(sub map[string]any, offs map[string]map[string]any) (billing.Schedule, bool) {
	if sub == nil {
		return billing.Schedule{}, false
	}
	ref, _ := dig(sub, "spec", "offeringRef").(map[string]any)
	off := offs[str(ref["namespace"])+"/"+str(ref["name"])]
	fee, _ := dig(off, "spec", "pricing", "subscriptionFee").(map[string]any)
	activated, err := time.Parse(time.RFC3339, str(dig(sub, "status", "activatedAt")))
	if fee == nil || err != nil {
		return billing.Schedule{}, false
	}
	s, err := billing.NewSchedule(billing.Fee{PriceMicros: num(fee["priceMicros"]), Period: str(fee["period"]),
		Alignment: billing.Alignment(str(fee["tickAlignment"])), MinPeriods: num(fee["minPeriods"])}, activated)
	if err != nil {
		return billing.Schedule{}, false
	}
	if deactivated, err := time.Parse(time.RFC3339, str(dig(sub, "status", "deactivatedAt"))); err == nil {
		if s, err = s.Deactivated(deactivated); err != nil {
			return billing.Schedule{}, false
		}
	}
	return s, true
}
