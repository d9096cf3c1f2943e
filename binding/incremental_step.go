package binding

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
)

// SetBinding adds a Binding, or replaces the Binding of its UID.
func (e *Incremental) SetBinding(o akv1.Binding) Step {
	id := e.idFor(o.UID)
	affected := idSet{}
	e.around(id, affected)
	e.dropBinding(id, &o)
	e.putBinding(id, &o)
	e.tighten(id)
	e.checks.object(akv1.KindBinding, o.Namespace, o.Name, o.UID, o.Generation, e.holders(akv1.KindBinding, o.UID), +1)
	e.addDeps(id)
	e.around(id, affected)
	return e.step(affected, nil)
}

// DeleteBinding removes the Binding of a UID.
func (e *Incremental) DeleteBinding(uid types.UID) Step {
	id, ok := e.idOf(uid)
	if !ok {
		return e.step(idSet{}, nil)
	}
	affected := idSet{}
	e.around(id, affected)
	e.dropBinding(id, nil)
	return e.step(affected, nil)
}

// dropBinding takes the Binding of a number out, before it becomes next
// (nil when it goes).
func (e *Incremental) dropBinding(id int32, next *akv1.Binding) {
	old := e.recs[id].binding
	if old == nil {
		return
	}
	e.checks.object(akv1.KindBinding, old.Namespace, old.Name, old.UID, old.Generation, e.holders(akv1.KindBinding, old.UID), -1)
	e.dropDeps(id)
	e.loosen(id, next)
	e.putBinding(id, nil)
}

// SetBackend adds an AgentBackend, or replaces the one of its UID.
func (e *Incremental) SetBackend(o akv1.AgentBackend) Step { return e.backendRefs().set(e, &o) }

// DeleteBackend removes the AgentBackend of a UID.
func (e *Incremental) DeleteBackend(uid types.UID) Step { return e.backendRefs().delete(e, uid) }

// SetConnection adds a ChatConnection, or replaces the one of its UID.
func (e *Incremental) SetConnection(o akv1.ChatConnection) Step { return e.connRefs().set(e, &o) }

// DeleteConnection removes the ChatConnection of a UID.
func (e *Incremental) DeleteConnection(uid types.UID) Step { return e.connRefs().delete(e, uid) }

// refKind is what the steps keep of one kind a Binding names, the
// AgentBackends or the ChatConnections: the objects by UID, the UID in
// force for each namespaced name, and the Bindings that name each. Both
// kinds change the same way; only these tables differ.
type refKind[P metav1.Object] struct {
	kind  string
	objs  map[types.UID]P
	names map[objKey]types.UID
	by    map[objKey]*hashTable
}

func (e *Incremental) backendRefs() refKind[*akv1.AgentBackend] {
	return refKind[*akv1.AgentBackend]{akv1.KindAgentBackend, e.backends, e.deps.backendNames, e.deps.byBackend}
}

func (e *Incremental) connRefs() refKind[*akv1.ChatConnection] {
	return refKind[*akv1.ChatConnection]{akv1.KindChatConnection, e.connections, e.deps.connNames, e.deps.byConn}
}

// set adds o, or replaces the object of its UID: the Bindings that name
// the old and the new namespaced name are re-evaluated.
func (r refKind[P]) set(e *Incremental, o P) Step {
	uid := o.GetUID()
	affected := idSet{}
	r.drop(e, uid, affected)
	r.objs[uid] = o
	e.checks.object(r.kind, o.GetNamespace(), o.GetName(), uid, o.GetGeneration(), e.holders(r.kind, uid), +1)
	k := objKey{o.GetNamespace(), o.GetName()}
	r.names[k] = uid
	e.referrers(r.by[k], affected)
	return e.step(affected, []types.UID{uid})
}

// delete removes the object of a UID.
func (r refKind[P]) delete(e *Incremental, uid types.UID) Step {
	affected := idSet{}
	r.drop(e, uid, affected)
	return e.step(affected, []types.UID{uid})
}

// drop forgets the object of a UID, if any, adding the Bindings that
// named it to affected. Its namespaced name is freed only if the UID
// still held it.
func (r refKind[P]) drop(e *Incremental, uid types.UID, affected idSet) {
	old, ok := r.objs[uid]
	if !ok {
		return
	}
	k := objKey{old.GetNamespace(), old.GetName()}
	e.referrers(r.by[k], affected)
	e.checks.object(r.kind, k.ns, k.name, uid, old.GetGeneration(), e.holders(r.kind, uid), -1)
	if r.names[k] == uid {
		delete(r.names, k)
	}
	delete(r.objs, uid)
}

// referrers adds the Bindings that name an object, with their
// competitors: whether they pass decides who holds their channels.
func (e *Incremental) referrers(names *hashTable, into idSet) {
	if names != nil {
		names.each(func(k uint64, _ int32) { e.around(int32(k-1), into) })
	}
}

// SetServed sets the memory entry of a UID; DeleteServed drops it. A
// host that keeps the memory tells the evaluator of the entries each
// Step remembered or forgot, as it would pass Result.Memory to the next
// full evaluation.
func (e *Incremental) SetServed(m Served) Step { return e.changeServed(m.UID, &m) }

// DeleteServed drops the memory entry of a UID.
func (e *Incremental) DeleteServed(uid types.UID) Step { return e.changeServed(uid, nil) }

func (e *Incremental) changeServed(uid types.UID, m *Served) Step {
	id := e.idFor(uid)
	affected := idSet{}
	var others []types.UID
	hasBinding := e.recs[id].binding != nil
	if hasBinding {
		e.around(id, affected)
		e.dropDeps(id)
	}
	if old := e.memoryOf(id); old != nil {
		e.checks.memory(*old, -1)
	}
	if m != nil {
		e.checks.memory(*m, +1)
	}
	e.setMemory(id, m)
	if hasBinding {
		e.addDeps(id)
		e.around(id, affected)
	}
	if b := e.backends[uid]; b != nil {
		e.referrers(e.deps.byBackend[objKey{b.Namespace, b.Name}], affected)
		others = append(others, uid)
	}
	if c := e.connections[uid]; c != nil {
		e.referrers(e.deps.byConn[objKey{c.Namespace, c.Name}], affected)
		others = append(others, uid)
	}
	st := e.step(affected, others)
	e.release(id)
	return st
}

// SetProbes replaces the finished probe results of one Binding UID;
// results carrying another UID are left out.
func (e *Incremental) SetProbes(uid types.UID, results []ProbeResult) Step {
	var kept []ProbeResult
	for _, r := range results {
		if r.UID == uid {
			kept = append(kept, r)
		}
	}
	id := e.idFor(uid)
	e.setProbes(id, kept)
	affected := idSet{}
	if e.recs[id].binding != nil {
		affected[id] = struct{}{}
	}
	st := e.step(affected, nil)
	e.release(id)
	return st
}

// SetNow moves the evaluation's instant. Only a condition that changes
// status carries it, so only the Bindings with a write due are
// re-evaluated; they are kept in an index, so a step with none due costs
// the same at any size.
func (e *Incremental) SetNow(now time.Time) Step {
	e.now = now
	affected := make(idSet, len(e.due))
	for id := range e.due {
		affected[id] = struct{}{}
	}
	return e.step(affected, nil)
}

// SetBroker changes the broker's own state (leadership, the config
// route, the prober's first listing). Every outcome can move: it is a
// full evaluation.
func (e *Incremental) SetBroker(b Broker) Step {
	e.broker = b
	return e.fullStep()
}
