package binding

import (
	"k8s.io/apimachinery/pkg/types"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
)

type uidSet = map[types.UID]struct{}

// bindingDeps is what one Binding's outcome reads besides itself: the
// backend and connections it names (now and in its memory) and the
// channels it claims or claimed. Every name is indexed whether or not it
// resolves, so the sets are a superset of the real dependencies.
type bindingDeps struct {
	backend objKey
	conns   [2]objKey
	chans   [2]chanKey
	n       int // how many of conns and chans are set
}

func depsOf(o *akv1.Binding, m *Served) bindingDeps {
	d := bindingDeps{backend: resolve(o.Spec.Agent.BackendRef, o.Namespace)}
	ck := resolve(o.Spec.Chat.ConnectionRef, o.Namespace)
	d.conns[0], d.chans[0], d.n = ck, chanKey{ck.ns, ck.name, o.Spec.Chat.Channel}, 1
	if m != nil && m.Kind == akv1.KindBinding && m.Binding != nil {
		mk := resolve(m.Binding.Chat.ConnectionRef, o.Namespace)
		d.conns[1], d.chans[1], d.n = mk, chanKey{mk.ns, mk.name, m.Binding.Chat.Channel}, 2
	}
	return d
}

// dependents indexes the Bindings by what they read, so a change finds
// the Bindings it can move without a walk of the snapshot.
type dependents struct {
	of        map[types.UID]bindingDeps
	byBackend map[objKey]uidSet
	byConn    map[objKey]uidSet
	byChan    map[chanKey]uidSet
	// The backends and connections by namespaced name; exact while no
	// name is shared (else the evaluator runs full passes and rebuilds
	// them).
	backendNames map[objKey]types.UID
	connNames    map[objKey]types.UID
}

func newDependents() dependents {
	return dependents{
		of:           map[types.UID]bindingDeps{},
		byBackend:    map[objKey]uidSet{},
		byConn:       map[objKey]uidSet{},
		byChan:       map[chanKey]uidSet{},
		backendNames: map[objKey]types.UID{},
		connNames:    map[objKey]types.UID{},
	}
}

func addTo[K comparable](m map[K]uidSet, k K, uid types.UID) {
	s := m[k]
	if s == nil {
		s = uidSet{}
		m[k] = s
	}
	s[uid] = struct{}{}
}

func removeFrom[K comparable](m map[K]uidSet, k K, uid types.UID) {
	if s := m[k]; s != nil {
		delete(s, uid)
		if len(s) == 0 {
			delete(m, k)
		}
	}
}

func (d *dependents) addBinding(o *akv1.Binding, m *Served) {
	bd := depsOf(o, m)
	d.of[o.UID] = bd
	addTo(d.byBackend, bd.backend, o.UID)
	for i := range bd.n {
		addTo(d.byConn, bd.conns[i], o.UID)
		addTo(d.byChan, bd.chans[i], o.UID)
	}
}

func (d *dependents) removeBinding(uid types.UID) {
	bd, ok := d.of[uid]
	if !ok {
		return
	}
	delete(d.of, uid)
	removeFrom(d.byBackend, bd.backend, uid)
	for i := range bd.n {
		removeFrom(d.byConn, bd.conns[i], uid)
		removeFrom(d.byChan, bd.chans[i], uid)
	}
}

// around adds a Binding and every Binding that competes with it for a
// channel, now or in memory.
func (d *dependents) around(uid types.UID, into uidSet) {
	into[uid] = struct{}{}
	bd, ok := d.of[uid]
	if !ok {
		return
	}
	for i := range bd.n {
		for c := range d.byChan[bd.chans[i]] {
			into[c] = struct{}{}
		}
	}
}

// identityChecks counts what keeps objects out of an evaluation, so the
// evaluator knows in constant time whether the snapshot has any.
type identityChecks struct {
	uids   map[types.UID]int
	names  map[identity]int // kind, namespace and name only
	shared int              // UIDs and names used more than once
	bad    int              // objects and memory entries that are unusable on their own
}

func newIdentityChecks() identityChecks {
	return identityChecks{uids: map[types.UID]int{}, names: map[identity]int{}}
}

func countIn[K comparable](m map[K]int, k K, d int) int {
	before := m[k]
	after := before + d
	if after == 0 {
		delete(m, k)
	} else {
		m[k] = after
	}
	return b2i(after > 1) - b2i(before > 1)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// object counts (d = +1) or uncounts (d = -1) one object.
func (c *identityChecks) object(kind, ns, name string, uid types.UID, gen int64, d int) {
	if identityProblem(ns, name, uid, gen) != "" {
		c.bad += d
	}
	if uid != "" {
		c.shared += countIn(c.uids, uid, d)
	}
	c.shared += countIn(c.names, identity{kind: kind, ns: ns, name: name}, d)
}

func (c *identityChecks) memory(m Served, d int) {
	if m.UID == "" || !m.hasSpec() {
		c.bad += d
	}
}

func (c *identityChecks) clean() bool { return c.shared == 0 && c.bad == 0 }
