package binding

import (
	"cmp"
	"errors"
	"hash/maphash"
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

	// ids numbers every UID the evaluator holds something for (a
	// Binding, a memory entry, probe results, or a mark of the current
	// result), and recs holds what it holds by that number, so the
	// indexes below keep a 4-byte number per Binding instead of a UID
	// string. The numbers of UIDs let go are reused (free). ids finds a
	// UID's number by a hash of the UID (seed), checked against the UID
	// the number holds.
	seed      maphash.Seed
	ids       hashTable
	recs      []rec
	free      []int32
	bare      map[int32]types.UID
	nBindings int

	// memory holds the memory entries that are not their Binding's own
	// spec and generation (see rec), by number; probeLists the probe
	// results that are not one result named as its Binding is.
	memory     map[int32]*Served
	probeLists map[int32][]ProbeResult

	backends    map[types.UID]*akv1.AgentBackend
	connections map[types.UID]*akv1.ChatConnection

	deps   dependents
	checks identityChecks
	// due holds the numbers of the Bindings whose outcome has a write due
	// (what SetNow re-evaluates), so SetNow never scans every outcome.
	due idSet
	// full is the last full evaluation's result, kept while the snapshot
	// has objects that cannot take part (Errors is then not empty).
	full *Result
}

// rec is what the evaluator holds for one UID. A settled Binding's
// memory entry is its own spec at its own generation: such an entry is
// held as a mark (ownMemory) instead of a copy, and rebuilt from the
// Binding when it is read. Likewise one probe result named as its
// Binding is named is held as the three fields that tell it apart.
//
// A rec does not keep its UID: a Binding has its own, and the numbers
// without a Binding keep theirs in Incremental.bare.
type rec struct {
	binding *akv1.Binding
	// probe is the one probe result of a Binding when marks has oneProbe.
	probe heldProbe
	marks uint8
}

// heldProbe is a probe result without the UID, namespace and name it
// shares with its Binding.
type heldProbe struct {
	gen     int64
	backend *BackendObservation
	channel *ChannelObservation
}

// The marks of a rec.
const (
	// ownMemory: the memory entry is the Binding's spec and generation.
	ownMemory uint8 = 1 << iota
	// oneProbe: the probe results are the one held in rec.probe.
	oneProbe
	// hasOutcome: the current result has an outcome for the UID (so a
	// step can report it Gone).
	hasOutcome
	// remembered: the current result's next memory has an entry for the
	// UID (so a step can report it Forgotten).
	remembered
)

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
	seed := maphash.MakeSeed()
	// Most UIDs are a Binding's; the memory also has the backends' and
	// connections'.
	uids := len(s.Bindings) + len(s.Backends) + len(s.Connections)
	e := &Incremental{
		now: s.Now, broker: s.Broker,
		seed:        seed,
		ids:         newHashTable(uids, false),
		recs:        make([]rec, 0, uids),
		bare:        map[int32]types.UID{},
		memory:      map[int32]*Served{},
		probeLists:  map[int32][]ProbeResult{},
		backends:    make(map[types.UID]*akv1.AgentBackend, len(s.Backends)),
		connections: make(map[types.UID]*akv1.ChatConnection, len(s.Connections)),
		deps:        newDependents(seed, len(s.Bindings)),
		checks:      newIdentityChecks(seed, uids),
		due:         idSet{},
	}
	for i := range s.Bindings {
		o := s.Bindings[i]
		if o.UID == "" {
			return nil, Result{}, ErrUnkeyable
		}
		id := e.idFor(o.UID)
		if e.recs[id].binding != nil {
			return nil, Result{}, ErrUnkeyable
		}
		e.putBinding(id, &o)
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
	// What tighten would hold as marks is held so from the start: a map
	// keeps its size after its entries are deleted.
	for _, m := range s.Served.Objects {
		id := e.idFor(m.UID)
		if e.hasMemory(id) {
			return nil, Result{}, ErrUnkeyable
		}
		if o := e.recs[id].binding; o != nil && isOwn(&m, o) {
			e.recs[id].marks |= ownMemory
		} else {
			e.memory[id] = &m
		}
		e.checks.memory(m, +1)
	}
	e.holdProbes(s.Probes)
	// The kinds are counted one after the other, so an object's UID is
	// shared with the objects of the kinds counted before its own.
	for id := range e.recs {
		if o := e.recs[id].binding; o != nil {
			e.checks.object(akv1.KindBinding, o.Namespace, o.Name, o.UID, o.Generation, 0, +1)
			e.addDeps(int32(id))
		}
	}
	for uid, o := range e.backends {
		e.checks.object(akv1.KindAgentBackend, o.Namespace, o.Name, uid, o.Generation, b2i(e.bindingOf(uid) != nil), +1)
		e.deps.backendNames[objKey{o.Namespace, o.Name}] = uid
	}
	for uid, o := range e.connections {
		e.checks.object(akv1.KindChatConnection, o.Namespace, o.Name, uid, o.Generation, b2i(e.bindingOf(uid) != nil)+b2i(e.backends[uid] != nil), +1)
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
	order := e.sortedIDs()
	// The Bindings' array is made once, so a memory entry that is its
	// Binding's own spec can point at the copy in it.
	s.Bindings = make([]akv1.Binding, 0, e.nBindings)
	for _, id := range order {
		r := &e.recs[id]
		if r.binding != nil {
			s.Bindings = append(s.Bindings, *r.binding)
		}
		if r.marks&ownMemory != 0 {
			s.Served.Objects = append(s.Served.Objects, ownEntry(&s.Bindings[len(s.Bindings)-1]))
		} else if m := e.memory[id]; m != nil {
			s.Served.Objects = append(s.Served.Objects, *m)
		}
		s.Probes = e.appendProbes(s.Probes, id)
	}
	if len(s.Bindings) == 0 {
		s.Bindings = nil
	}
	for _, uid := range sortedKeys(e.backends) {
		s.Backends = append(s.Backends, *e.backends[uid])
	}
	for _, uid := range sortedKeys(e.connections) {
		s.Connections = append(s.Connections, *e.connections[uid])
	}
	return s
}

// Result returns the whole current result, as Evaluate(Snapshot())
// returns it. The evaluator does not keep the outcomes it reported
// (they are most of what it would hold per Binding), so this is a full
// evaluation of the snapshot, or the last one's result while the
// snapshot has objects that cannot take part: a host that works per
// event reads Steps instead.
func (e *Incremental) Result() Result {
	if e.full != nil {
		return *e.full
	}
	s := e.Snapshot()
	return evaluate(&s, false, nil)
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

// sortedIDs returns the numbers in use, ordered by their UIDs.
func (e *Incremental) sortedIDs() []int32 {
	out := make([]int32, 0, e.ids.n)
	e.ids.each(func(_ uint64, id int32) { out = append(out, id) })
	slices.SortFunc(out, func(a, b int32) int { return cmp.Compare(e.uidOf(a), e.uidOf(b)) })
	return out
}

// holders is how many objects of the kinds other than kind have the UID
// uid (each kind holds one object per UID at most).
func (e *Incremental) holders(kind string, uid types.UID) int {
	return b2i(kind != akv1.KindBinding && e.bindingOf(uid) != nil) +
		b2i(kind != akv1.KindAgentBackend && e.backends[uid] != nil) +
		b2i(kind != akv1.KindChatConnection && e.connections[uid] != nil)
}
