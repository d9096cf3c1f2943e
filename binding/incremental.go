package binding

import (
	"cmp"
	"errors"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/types"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
)

// Incremental evaluates a snapshot once and then keeps its result up to
// date as it is told of changes, one at a time, re-evaluating only the
// Bindings whose outcome a change can move:
//
//   - a Binding added, updated or deleted: that Binding, and every
//     Binding that claims or claimed a channel it claims or claimed (a
//     channel is a connection and a channel name; the claims are the
//     current spec's and the remembered one's);
//   - an AgentBackend or ChatConnection: the Bindings that name it now
//     (or, for a connection, in their memory), and the competitors on
//     their channels;
//   - a memory entry: its object, as if that object had changed;
//   - probe results: the Binding of that UID;
//   - the time: the Bindings whose conditions are due to be written,
//     since only a new transition carries the time;
//   - the broker's state (leadership, config route, prober): all.
//
// After any sequence of changes, Result equals Evaluate(Snapshot()) byte
// for byte. An Incremental is not safe for concurrent use.
//
// While the snapshot has an object that cannot take part (a missing name
// or namespace, a negative generation, a UID or namespaced name used
// twice, a memory entry without its spec), which Evaluate reports in
// Result.Errors, every change is answered by a full evaluation: such
// states are rare and short, and they couple objects that otherwise
// have nothing to do with each other.
type Incremental struct {
	now    time.Time
	broker Broker

	bindings    map[types.UID]*akv1.Binding
	backends    map[types.UID]*akv1.AgentBackend
	connections map[types.UID]*akv1.ChatConnection
	memory      map[types.UID]Served
	probes      map[types.UID][]ProbeResult

	deps   dependents
	checks identityChecks

	// The current outcome, per UID, and the UIDs whose outcome has a
	// write due (what SetNow re-evaluates), kept with results by
	// setResult and dropResult so SetNow never scans every outcome.
	results  outcomeTable
	due      uidSet
	remember map[types.UID]Served // the next memory's entries
	ignored  map[types.UID][]IgnoredProbe
	// full is the last full evaluation's result, kept while the snapshot
	// has objects that cannot take part (Errors is then not empty).
	full *Result
}

// Step is what one change did: the outcomes it re-evaluated and how the
// next memory moved.
type Step struct {
	// Bindings are the re-evaluated outcomes of Bindings this broker
	// answers for, sorted by namespace, name and UID. A Binding not listed
	// keeps its earlier outcome.
	Bindings []Outcome
	// Gone lists, sorted, the UIDs of Bindings that had an outcome before
	// the change and have none now (deleted, or now another broker's).
	Gone []types.UID
	// Remembered are the next memory's entries of the objects the change
	// re-evaluated, sorted like Result.Memory (an entry may be listed
	// unchanged); Forgotten, sorted, the UIDs whose entry it dropped.
	Remembered []Served
	Forgotten  []types.UID
	// Full reports that the change was answered by a full evaluation: every
	// outcome is listed.
	Full bool
}

// ErrUnkeyable is returned by NewIncremental for a snapshot whose objects
// cannot be told apart by UID: an object without a UID, two objects of one
// kind with one UID, or two memory entries for one UID.
var ErrUnkeyable = errors.New("binding: the snapshot cannot be kept by UID")

// NewIncremental builds the evaluator from a snapshot and returns it with
// the full result of that snapshot.
func NewIncremental(s Snapshot) (*Incremental, Result, error) {
	e := &Incremental{
		now: s.Now, broker: s.Broker,
		bindings:    make(map[types.UID]*akv1.Binding, len(s.Bindings)),
		backends:    make(map[types.UID]*akv1.AgentBackend, len(s.Backends)),
		connections: make(map[types.UID]*akv1.ChatConnection, len(s.Connections)),
		memory:      make(map[types.UID]Served, len(s.Served.Objects)),
		probes:      make(map[types.UID][]ProbeResult),
		deps:        newDependents(),
		checks:      newIdentityChecks(),
	}
	for i := range s.Bindings {
		o := s.Bindings[i]
		if o.UID == "" || e.bindings[o.UID] != nil {
			return nil, Result{}, ErrUnkeyable
		}
		e.bindings[o.UID] = &o
	}
	for i := range s.Backends {
		o := s.Backends[i]
		if o.UID == "" || e.backends[o.UID] != nil {
			return nil, Result{}, ErrUnkeyable
		}
		e.backends[o.UID] = &o
	}
	for i := range s.Connections {
		o := s.Connections[i]
		if o.UID == "" || e.connections[o.UID] != nil {
			return nil, Result{}, ErrUnkeyable
		}
		e.connections[o.UID] = &o
	}
	for _, m := range s.Served.Objects {
		if _, dup := e.memory[m.UID]; dup {
			return nil, Result{}, ErrUnkeyable
		}
		e.memory[m.UID] = m
		e.checks.memory(m, +1)
	}
	for _, p := range s.Probes {
		e.probes[p.UID] = append(e.probes[p.UID], p)
	}
	for uid, o := range e.bindings {
		e.checks.object(akv1.KindBinding, o.Namespace, o.Name, uid, o.Generation, +1)
		e.deps.addBinding(o, e.memoryOf(uid))
	}
	for uid, o := range e.backends {
		e.checks.object(akv1.KindAgentBackend, o.Namespace, o.Name, uid, o.Generation, +1)
		e.deps.backendNames[objKey{o.Namespace, o.Name}] = uid
	}
	for uid, o := range e.connections {
		e.checks.object(akv1.KindChatConnection, o.Namespace, o.Name, uid, o.Generation, +1)
		e.deps.connNames[objKey{o.Namespace, o.Name}] = uid
	}
	r := evaluate(&s, false, nil)
	e.adopt(r)
	return e, r, nil
}

// Snapshot returns the snapshot the evaluator now describes, its lists
// sorted by UID.
func (e *Incremental) Snapshot() Snapshot {
	s := Snapshot{Now: e.now, Broker: e.broker}
	for _, uid := range sortedKeys(e.bindings) {
		s.Bindings = append(s.Bindings, *e.bindings[uid])
	}
	for _, uid := range sortedKeys(e.backends) {
		s.Backends = append(s.Backends, *e.backends[uid])
	}
	for _, uid := range sortedKeys(e.connections) {
		s.Connections = append(s.Connections, *e.connections[uid])
	}
	for _, uid := range sortedKeys(e.memory) {
		s.Served.Objects = append(s.Served.Objects, e.memory[uid])
	}
	for _, uid := range sortedKeys(e.probes) {
		s.Probes = append(s.Probes, e.probes[uid]...)
	}
	return s
}

// Result assembles the whole current result, as Evaluate(Snapshot())
// returns it. It costs a sort of every outcome: a host that works per
// event reads Steps instead.
func (e *Incremental) Result() Result {
	if e.full != nil {
		return *e.full
	}
	r := Result{Bindings: make([]Outcome, 0, len(e.results.list)), Memory: ServedMemory{Objects: make([]Served, 0, len(e.remember))}}
	r.Bindings = append(r.Bindings, e.results.list...)
	slices.SortFunc(r.Bindings, compareResults)
	for _, m := range e.remember {
		r.Memory.Objects = append(r.Memory.Objects, m)
	}
	slices.SortFunc(r.Memory.Objects, CompareServed)
	for uid, ps := range e.probes {
		if e.bindings[uid] != nil {
			r.IgnoredProbes = append(r.IgnoredProbes, e.ignored[uid]...)
			continue
		}
		for _, p := range ps {
			why := "no Binding of this broker has this uid"
			if p.UID == "" {
				why = "the result has no uid"
			}
			r.IgnoredProbes = append(r.IgnoredProbes, IgnoredProbe{UID: p.UID, Namespace: p.Namespace, Name: p.Name, Generation: p.Generation, Why: why})
		}
	}
	sortResult(&r)
	return r
}

func compareResults(a, b Outcome) int {
	return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name), cmp.Compare(a.UID, b.UID))
}

// kindRank orders the memory's kinds as Evaluate lists them.
func kindRank(k string) int {
	switch k {
	case akv1.KindAgentBackend:
		return 0
	case akv1.KindBinding:
		return 1
	}
	return 2
}

// CompareServed orders memory entries as Result.Memory lists them: by
// kind (AgentBackend, Binding, ChatConnection), namespace, name and UID.
// A host that keeps the memory by UID between passes sorts it with this
// to hand it on in the engine's own order.
func CompareServed(a, b Served) int {
	return cmp.Or(cmp.Compare(kindRank(a.Kind), kindRank(b.Kind)), cmp.Compare(a.Namespace, b.Namespace),
		cmp.Compare(a.Name, b.Name), cmp.Compare(a.UID, b.UID))
}

func sortedKeys[V any](m map[types.UID]V) []types.UID {
	out := make([]types.UID, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// memoryOf returns the memory entry of a UID, or nil.
func (e *Incremental) memoryOf(uid types.UID) *Served {
	if m, ok := e.memory[uid]; ok {
		return &m
	}
	return nil
}
