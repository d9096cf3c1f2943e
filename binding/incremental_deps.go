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

// depsNow is what the Binding of uid reads as the evaluator holds it
// now (its object and memory entry); ok is false without the Binding.
// It is worked out again on each use instead of kept per Binding: the
// dependents change only with the Binding or its memory entry, and both
// are dropped from the indexes (removeBinding) before either changes.
func (e *Incremental) depsNow(uid types.UID) (bindingDeps, bool) {
	o := e.bindings[uid]
	if o == nil {
		return bindingDeps{}, false
	}
	return depsOf(o, e.memory[uid]), true
}

// dependents indexes the Bindings by what they read, so a change finds
// the Bindings it can move without a walk of the snapshot.
type dependents struct {
	byBackend map[objKey]uidSet
	byConn    map[objKey]uidSet
	byChan    chanClaims
	// The backends and connections by namespaced name; exact while no
	// name is shared (else the evaluator runs full passes and rebuilds
	// them).
	backendNames map[objKey]types.UID
	connNames    map[objKey]types.UID
}

func newDependents() dependents {
	return dependents{
		byBackend:    map[objKey]uidSet{},
		byConn:       map[objKey]uidSet{},
		byChan:       chanClaims{one: map[chanKey]types.UID{}, many: map[chanKey]uidSet{}},
		backendNames: map[objKey]types.UID{},
		connNames:    map[objKey]types.UID{},
	}
}

// chanClaims holds the Bindings that claim each channel. Most channels
// have one claimant, kept in one; a set, in many, is made only for a
// channel claimed twice or more (a set per channel was a third of what
// an Incremental held per Binding).
type chanClaims struct {
	one  map[chanKey]types.UID
	many map[chanKey]uidSet
}

func (c *chanClaims) add(k chanKey, uid types.UID) {
	if s := c.many[k]; s != nil {
		s[uid] = struct{}{}
		return
	}
	first, ok := c.one[k]
	switch {
	case !ok:
		c.one[k] = uid
	case first != uid:
		delete(c.one, k)
		c.many[k] = uidSet{first: {}, uid: {}}
	}
}

func (c *chanClaims) remove(k chanKey, uid types.UID) {
	if s := c.many[k]; s != nil {
		delete(s, uid)
		if len(s) == 1 {
			delete(c.many, k)
			for last := range s {
				c.one[k] = last
			}
		}
		return
	}
	if c.one[k] == uid {
		delete(c.one, k)
	}
}

// addTo adds every claimant of k to into.
func (c *chanClaims) addTo(k chanKey, into uidSet) {
	if uid, ok := c.one[k]; ok {
		into[uid] = struct{}{}
		return
	}
	for uid := range c.many[k] {
		into[uid] = struct{}{}
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

// addBinding indexes what o reads, with its memory entry m.
func (d *dependents) addBinding(o *akv1.Binding, m *Served) { d.index(o, m, true) }

// removeBinding drops what o read, with its memory entry m: the two
// addBinding was given.
func (d *dependents) removeBinding(o *akv1.Binding, m *Served) { d.index(o, m, false) }

// index adds (or, with add false, removes) o's UID under every object o
// reads, with its memory entry m.
func (d *dependents) index(o *akv1.Binding, m *Served, add bool) {
	bd := depsOf(o, m)
	edit, editChan := removeFrom[objKey], d.byChan.remove
	if add {
		edit, editChan = addTo[objKey], d.byChan.add
	}
	edit(d.byBackend, bd.backend, o.UID)
	for i := range bd.n {
		edit(d.byConn, bd.conns[i], o.UID)
		editChan(bd.chans[i], o.UID)
	}
}

// around adds a Binding and every Binding that competes with it for a
// channel, now or in memory.
func (e *Incremental) around(uid types.UID, into uidSet) {
	into[uid] = struct{}{}
	bd, ok := e.depsNow(uid)
	if !ok {
		return
	}
	for i := range bd.n {
		e.deps.byChan.addTo(bd.chans[i], into)
	}
}

// dropDeps drops the Binding of uid from the dependents, as it is held
// now; it does nothing without the Binding.
func (e *Incremental) dropDeps(uid types.UID) {
	o := e.bindings[uid]
	if o == nil {
		return
	}
	e.deps.removeBinding(o, e.memory[uid])
}

// identityChecks counts what keeps objects out of an evaluation, so the
// evaluator knows in constant time whether the snapshot has any. A UID's
// uses are not counted in a map of their own: the evaluator's maps by
// kind tell how many objects have it (holders).
type identityChecks struct {
	names  map[nameKey]int
	shared int // UIDs and names used more than once
	bad    int // objects and memory entries that are unusable on their own
}

func newIdentityChecks() identityChecks {
	return identityChecks{names: map[nameKey]int{}}
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

// object counts (d = +1) or uncounts (d = -1) one object; others is how
// many counted objects of the other kinds have its UID. The UID becomes
// (or stops being) shared exactly when one other object has it.
func (c *identityChecks) object(kind, ns, name string, uid types.UID, gen int64, others, d int) {
	if identityProblem(ns, name, uid, gen) != "" {
		c.bad += d
	}
	if uid != "" && others == 1 {
		c.shared += d
	}
	c.shared += countIn(c.names, nameKey{kind: kind, ns: ns, name: name}, d)
}

func (c *identityChecks) memory(m Served, d int) {
	if m.UID == "" || !m.hasSpec() {
		c.bad += d
	}
}

func (c *identityChecks) clean() bool { return c.shared == 0 && c.bad == 0 }
