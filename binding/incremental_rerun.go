package binding

import (
	"slices"

	"k8s.io/apimachinery/pkg/types"
)

// step re-evaluates the affected Bindings, with the context their
// outcome reads, and refreshes the memory entries of the backends and
// connections in others.
func (e *Incremental) step(affected uidSet, others []types.UID) Step {
	if e.full != nil || !e.checks.clean() {
		return e.fullStep()
	}
	// Context: every competitor on an affected Binding's channels, so each
	// channel's holder is decided among all its claimants.
	context := uidSet{}
	for uid := range affected {
		if e.bindings[uid] != nil {
			e.around(uid, context)
		}
	}
	sub := Snapshot{Now: e.now, Broker: e.broker}
	seenB, seenC := map[types.UID]bool{}, map[types.UID]bool{}
	addBackend := func(uid types.UID, ok bool) {
		if o := e.backends[uid]; ok && o != nil && !seenB[uid] {
			seenB[uid] = true
			sub.Backends = append(sub.Backends, *o)
			e.addServed(&sub, uid)
		}
	}
	addConn := func(uid types.UID, ok bool) {
		if o := e.connections[uid]; ok && o != nil && !seenC[uid] {
			seenC[uid] = true
			sub.Connections = append(sub.Connections, *o)
			e.addServed(&sub, uid)
		}
	}
	for uid := range context {
		o := e.bindings[uid]
		if o == nil {
			continue
		}
		sub.Bindings = append(sub.Bindings, *o)
		e.addServed(&sub, uid)
		d, _ := e.depsNow(uid)
		b, ok := e.deps.backendNames[d.backend]
		addBackend(b, ok)
		for i := range d.n {
			c, ok := e.deps.connNames[d.conns[i]]
			addConn(c, ok)
		}
		if _, ok := affected[uid]; ok {
			sub.Probes = append(sub.Probes, e.probes[uid]...)
		}
	}
	for _, uid := range others {
		addBackend(uid, true)
		addConn(uid, true)
	}
	r := evaluate(&sub, false, nil)

	var st Step
	got := make(map[types.UID]int, len(affected))
	for i := range r.Bindings {
		if _, ok := affected[r.Bindings[i].UID]; ok {
			got[r.Bindings[i].UID] = i
		}
	}
	for uid := range affected {
		delete(e.ignored, uid)
		if i, ok := got[uid]; ok {
			e.setResult(r.Bindings[i])
			st.Bindings = append(st.Bindings, r.Bindings[i])
		} else if e.results.has(uid) {
			e.dropResult(uid)
			st.Gone = append(st.Gone, uid)
		}
	}
	for _, p := range r.IgnoredProbes {
		if _, ok := affected[p.UID]; ok && e.bindings[p.UID] != nil {
			e.ignored[p.UID] = append(e.ignored[p.UID], p)
		}
	}
	refreshed := uidSet{}
	for uid := range affected {
		refreshed[uid] = struct{}{}
	}
	for _, uid := range others {
		refreshed[uid] = struct{}{}
	}
	kept := uidSet{}
	for _, m := range r.Memory.Objects {
		if _, ok := refreshed[m.UID]; ok {
			e.remember[m.UID] = m
			kept[m.UID] = struct{}{}
			st.Remembered = append(st.Remembered, m)
		}
	}
	for uid := range refreshed {
		if _, ok := kept[uid]; ok {
			continue
		}
		if _, had := e.remember[uid]; had {
			delete(e.remember, uid)
			st.Forgotten = append(st.Forgotten, uid)
		}
	}
	slices.SortFunc(st.Bindings, compareResults)
	slices.SortFunc(st.Remembered, CompareServed)
	slices.Sort(st.Gone)
	slices.Sort(st.Forgotten)
	return st
}

// addServed puts a UID's memory entry in a partial snapshot.
func (e *Incremental) addServed(s *Snapshot, uid types.UID) {
	if m, ok := e.memory[uid]; ok {
		s.Served.Objects = append(s.Served.Objects, m)
	}
}

// fullStep evaluates the whole snapshot and adopts the result.
func (e *Incremental) fullStep() Step {
	s := e.Snapshot()
	r := evaluate(&s, false, nil)
	before := e.results
	e.adopt(r)
	st := Step{Full: true, Bindings: r.Bindings, Remembered: r.Memory.Objects}
	for uid := range before.at {
		if !e.results.has(uid) {
			st.Gone = append(st.Gone, uid)
		}
	}
	slices.Sort(st.Gone)
	return st
}

// adopt takes a full result as the current outcome, and rebuilds the
// name indexes a shared name may have left inexact.
func (e *Incremental) adopt(r Result) {
	e.full = nil
	if len(r.Errors) > 0 {
		e.full = &r
	}
	e.results = newOutcomeTable(len(r.Bindings))
	e.due = uidSet{}
	for _, br := range r.Bindings {
		e.setResult(br)
	}
	e.remember = make(map[types.UID]Served, len(r.Memory.Objects))
	for _, m := range r.Memory.Objects {
		e.remember[m.UID] = m
	}
	e.ignored = map[types.UID][]IgnoredProbe{}
	for _, p := range r.IgnoredProbes {
		if e.bindings[p.UID] != nil {
			e.ignored[p.UID] = append(e.ignored[p.UID], p)
		}
	}
	clear(e.deps.backendNames)
	for uid, o := range e.backends {
		e.deps.backendNames[objKey{o.Namespace, o.Name}] = uid
	}
	clear(e.deps.connNames)
	for uid, o := range e.connections {
		e.deps.connNames[objKey{o.Namespace, o.Name}] = uid
	}
}

// setResult takes o as its Binding's current outcome.
func (e *Incremental) setResult(o Outcome) {
	e.results.set(o)
	if o.Due() {
		e.due[o.UID] = struct{}{}
	} else {
		delete(e.due, o.UID)
	}
}

// dropResult forgets the outcome of uid.
func (e *Incremental) dropResult(uid types.UID) {
	e.results.drop(uid)
	delete(e.due, uid)
}
