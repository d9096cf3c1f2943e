package binding

import (
	"hash/maphash"

	"k8s.io/apimachinery/pkg/types"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
)

// uidKey is the key of a UID in ids.
func (e *Incremental) uidKey(uid types.UID) uint64 {
	return nonzero(maphash.String(e.seed, string(uid)))
}

// idFor returns the number of a UID, giving it one if it has none.
func (e *Incremental) idFor(uid types.UID) int32 {
	k := e.uidKey(uid)
	if id, ok := e.ids.find(k, func(id int32) bool { return e.uidOf(id) == uid }); ok {
		return id
	}
	var id int32
	if n := len(e.free); n > 0 {
		id, e.free = e.free[n-1], e.free[:n-1]
	} else {
		id = int32(len(e.recs))
		e.recs = append(e.recs, rec{})
	}
	e.recs[id] = rec{}
	e.bare[id] = uid
	e.ids.insert(k, id)
	return id
}

// uidOf returns the UID of a number in use.
func (e *Incremental) uidOf(id int32) types.UID {
	if o := e.recs[id].binding; o != nil {
		return o.UID
	}
	return e.bare[id]
}

// putBinding sets the Binding of a number (nil takes it out).
func (e *Incremental) putBinding(id int32, o *akv1.Binding) {
	r := &e.recs[id]
	switch {
	case o != nil:
		delete(e.bare, id)
		e.nBindings += 1 - b2i(r.binding != nil)
	case r.binding != nil:
		e.bare[id] = r.binding.UID
		e.nBindings--
	}
	r.binding = o
}

// idOf returns the number of a UID, if it has one.
func (e *Incremental) idOf(uid types.UID) (int32, bool) {
	return e.ids.find(e.uidKey(uid), func(id int32) bool { return e.uidOf(id) == uid })
}

// bindingOf returns the Binding of a UID, or nil.
func (e *Incremental) bindingOf(uid types.UID) *akv1.Binding {
	if id, ok := e.idOf(uid); ok {
		return e.recs[id].binding
	}
	return nil
}

// release lets a number go once nothing is held for it.
func (e *Incremental) release(id int32) {
	r := &e.recs[id]
	uid := e.uidOf(id)
	if got, ok := e.idOf(uid); !ok || got != id {
		return // free already
	}
	if r.binding != nil || r.marks != 0 || e.memory[id] != nil || e.probeLists[id] != nil {
		return
	}
	e.ids.remove(e.uidKey(uid), id)
	delete(e.bare, id)
	*r = rec{}
	e.free = append(e.free, id)
}

// ownEntry is the memory entry of a Binding that serves its own spec at
// its own generation.
func ownEntry(o *akv1.Binding) Served {
	return bindingMemory(o, o.Generation, &o.Spec)
}

// isOwn reports that m is o's own entry: o's spec at o's generation.
func isOwn(m *Served, o *akv1.Binding) bool {
	return m.Kind == akv1.KindBinding && m.Binding != nil && m.UID == o.UID && m.Namespace == o.Namespace &&
		m.Name == o.Name && m.Generation == o.Generation && *m.Binding == o.Spec
}

func (e *Incremental) hasMemory(id int32) bool {
	return e.recs[id].marks&ownMemory != 0 || e.memory[id] != nil
}

// memoryOf returns the memory entry of a number, or nil. An entry held
// as a mark is rebuilt with a copy of the Binding's spec, so the caller
// may hand it on.
func (e *Incremental) memoryOf(id int32) *Served {
	r := &e.recs[id]
	if r.marks&ownMemory == 0 {
		return e.memory[id]
	}
	spec := r.binding.Spec
	m := bindingMemory(r.binding, r.binding.Generation, &spec)
	return &m
}

// setMemory sets the memory entry of a number (nil drops it).
func (e *Incremental) setMemory(id int32, m *Served) {
	e.recs[id].marks &^= ownMemory
	delete(e.memory, id)
	if m != nil {
		e.memory[id] = m
		e.tighten(id)
	}
}

// appendProbes appends the probe results of a number to out.
func (e *Incremental) appendProbes(out []ProbeResult, id int32) []ProbeResult {
	r := &e.recs[id]
	if r.marks&oneProbe == 0 {
		return append(out, e.probeLists[id]...)
	}
	o := r.binding
	return append(out, ProbeResult{UID: o.UID, Namespace: o.Namespace, Name: o.Name, Generation: r.probe.gen,
		Backend: r.probe.backend, Channel: r.probe.channel})
}

// setProbes sets the probe results of a number.
func (e *Incremental) setProbes(id int32, results []ProbeResult) {
	r := &e.recs[id]
	r.marks &^= oneProbe
	r.probe = heldProbe{}
	delete(e.probeLists, id)
	if len(results) > 0 {
		e.probeLists[id] = results
		e.tighten(id)
	}
}

// tighten holds the memory entry and the probe results of a number as
// marks where they are its Binding's own.
func (e *Incremental) tighten(id int32) {
	r := &e.recs[id]
	if r.binding == nil {
		return
	}
	if m := e.memory[id]; m != nil && isOwn(m, r.binding) {
		delete(e.memory, id)
		r.marks |= ownMemory
	}
	if l := e.probeLists[id]; len(l) == 1 && l[0].Namespace == r.binding.Namespace && l[0].Name == r.binding.Name {
		delete(e.probeLists, id)
		r.marks |= oneProbe
		r.probe = heldProbe{gen: l[0].Generation, backend: l[0].Backend, channel: l[0].Channel}
	}
}

// loosen holds, before the Binding of a number becomes next (nil when it
// goes), whatever marks stand for that next would no longer match.
func (e *Incremental) loosen(id int32, next *akv1.Binding) {
	r := &e.recs[id]
	o := r.binding
	if o == nil {
		return
	}
	if r.marks&ownMemory != 0 && (next == nil || next.Generation != o.Generation || next.Namespace != o.Namespace ||
		next.Name != o.Name || next.Spec != o.Spec) {
		e.memory[id] = e.memoryOf(id)
		r.marks &^= ownMemory
	}
	if r.marks&oneProbe != 0 && (next == nil || next.Namespace != o.Namespace || next.Name != o.Name) {
		e.probeLists[id] = e.appendProbes(nil, id)
		r.marks &^= oneProbe
		r.probe = heldProbe{}
	}
}

// holdProbes holds a snapshot's probe results, each UID's in the order
// given: a Binding's one result named as it is, as a mark.
func (e *Incremental) holdProbes(probes []ProbeResult) {
	ids := make([]int32, len(probes))
	for i := range probes {
		ids[i] = e.idFor(probes[i].UID)
	}
	count := make([]int32, len(e.recs))
	for _, id := range ids {
		count[id]++
	}
	for i := range probes {
		id, p := ids[i], &probes[i]
		r := &e.recs[id]
		if count[id] == 1 && r.binding != nil && p.Namespace == r.binding.Namespace && p.Name == r.binding.Name {
			r.marks |= oneProbe
			r.probe = heldProbe{gen: p.Generation, backend: p.Backend, channel: p.Channel}
			continue
		}
		e.probeLists[id] = append(e.probeLists[id], *p)
	}
}
