package binding

import (
	"slices"

	"k8s.io/apimachinery/pkg/types"
)

// step re-evaluates the affected Bindings, with the context their
// outcome reads, and refreshes the memory entries of the backends and
// connections in others.
func (e *Incremental) step(affected idSet, others []types.UID) Step {
	if e.full != nil || !e.checks.clean() {
		return e.fullStep()
	}
	// Context: every competitor on an affected Binding's channels, so each
	// channel's holder is decided among all its claimants.
	context := idSet{}
	for id := range affected {
		if e.recs[id].binding != nil {
			e.around(id, context)
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
	for id := range context {
		r := &e.recs[id]
		if r.binding == nil {
			continue
		}
		sub.Bindings = append(sub.Bindings, *r.binding)
		if m := e.memoryOf(id); m != nil {
			sub.Served.Objects = append(sub.Served.Objects, *m)
		}
		d, _ := e.depsNow(id)
		b, ok := e.deps.backendNames[d.backend]
		addBackend(b, ok)
		for i := range d.n {
			c, ok := e.deps.connNames[d.conns[i]]
			addConn(c, ok)
		}
		if _, ok := affected[id]; ok {
			sub.Probes = e.appendProbes(sub.Probes, id)
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
		got[r.Bindings[i].UID] = i
	}
	for id := range affected {
		if i, ok := got[e.uidOf(id)]; ok {
			e.setResult(id, &r.Bindings[i])
			st.Bindings = append(st.Bindings, r.Bindings[i])
		} else if e.recs[id].marks&hasOutcome != 0 {
			e.dropResult(id)
			st.Gone = append(st.Gone, e.uidOf(id))
		}
	}
	refreshed := make(idSet, len(affected)+len(others))
	for id := range affected {
		refreshed[id] = struct{}{}
	}
	for _, uid := range others {
		refreshed[e.idFor(uid)] = struct{}{}
	}
	kept := idSet{}
	for _, m := range r.Memory.Objects {
		if id, ok := e.idOf(m.UID); ok {
			if _, ok := refreshed[id]; ok {
				e.recs[id].marks |= remembered
				kept[id] = struct{}{}
				st.Remembered = append(st.Remembered, m)
			}
		}
	}
	for id := range refreshed {
		if _, ok := kept[id]; !ok && e.recs[id].marks&remembered != 0 {
			e.recs[id].marks &^= remembered
			st.Forgotten = append(st.Forgotten, e.uidOf(id))
		}
		e.release(id)
	}
	slices.SortFunc(st.Bindings, compareResults)
	slices.SortFunc(st.Remembered, CompareServed)
	slices.Sort(st.Gone)
	slices.Sort(st.Forgotten)
	return st
}

// addServed puts a backend's or connection's memory entry in a partial
// snapshot.
func (e *Incremental) addServed(s *Snapshot, uid types.UID) {
	if id, ok := e.idOf(uid); ok {
		if m := e.memoryOf(id); m != nil {
			s.Served.Objects = append(s.Served.Objects, *m)
		}
	}
}

// fullStep evaluates the whole snapshot and adopts the result.
func (e *Incremental) fullStep() Step {
	s := e.Snapshot()
	r := evaluate(&s, false, nil)
	var before []types.UID
	for id := range e.recs {
		if e.recs[id].marks&hasOutcome != 0 {
			before = append(before, e.uidOf(int32(id)))
		}
	}
	e.adopt(r)
	st := Step{Full: true, Bindings: r.Bindings, Remembered: r.Memory.Objects}
	for _, uid := range before {
		if id, ok := e.idOf(uid); !ok || e.recs[id].marks&hasOutcome == 0 {
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
	for id := range e.recs {
		e.recs[id].marks &^= hasOutcome | remembered
	}
	clear(e.due)
	for i := range r.Bindings {
		e.setResult(e.idFor(r.Bindings[i].UID), &r.Bindings[i])
	}
	for _, m := range r.Memory.Objects {
		e.recs[e.idFor(m.UID)].marks |= remembered
	}
	for id := range e.recs {
		e.release(int32(id))
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

// setResult records that o is the current outcome of a number.
func (e *Incremental) setResult(id int32, o *Outcome) {
	e.recs[id].marks |= hasOutcome
	if o.Due() {
		e.due[id] = struct{}{}
	} else {
		delete(e.due, id)
	}
}

// dropResult forgets the outcome of a number.
func (e *Incremental) dropResult(id int32) {
	e.recs[id].marks &^= hasOutcome
	delete(e.due, id)
}
