package binding

import (
	"hash/maphash"

	"k8s.io/apimachinery/pkg/types"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
)

// idSet is a set of the numbers the evaluator gives UIDs.
type idSet = map[int32]struct{}

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

// depsNow is what the Binding of a number reads as the evaluator holds
// it now (its object and memory entry); ok is false without the
// Binding. It is worked out again on each use instead of kept per
// Binding: the dependents change only with the Binding or its memory
// entry, and both are dropped from the indexes (dropDeps) before either
// changes. An entry that is the Binding's own names what the Binding
// names, so it adds nothing.
func (e *Incremental) depsNow(id int32) (bindingDeps, bool) {
	r := &e.recs[id]
	if r.binding == nil {
		return bindingDeps{}, false
	}
	if r.marks&ownMemory != 0 {
		return depsOf(r.binding, nil), true
	}
	return depsOf(r.binding, e.memory[id]), true
}

// dependents indexes the Bindings by what they read, so a change finds
// the Bindings it can move without a walk of the snapshot.
type dependents struct {
	byBackend map[objKey]*hashTable
	byConn    map[objKey]*hashTable
	byChan    chanClaims
	// The backends and connections by namespaced name; exact while no
	// name is shared (else the evaluator runs full passes and rebuilds
	// them).
	backendNames map[objKey]types.UID
	connNames    map[objKey]types.UID
}

// newDependents returns the indexes, sized for n Bindings.
func newDependents(seed maphash.Seed, n int) dependents {
	return dependents{
		byBackend:    map[objKey]*hashTable{},
		byConn:       map[objKey]*hashTable{},
		byChan:       chanClaims{seed: seed, one: newHashTable(n, false), many: map[uint64]idSet{}},
		backendNames: map[objKey]types.UID{},
		connNames:    map[objKey]types.UID{},
	}
}

// chanClaims holds the Bindings that claim each channel, by a hash of
// the channel's key: a 48-byte key per Binding was the largest entry an
// Incremental held. Two channels may share a hash, so a lookup keeps
// only the claimants whose own claims name the channel (claimants).
// Most hashes have one claimant, kept in one; a set, in many, is made
// only for a hash claimed twice or more.
type chanClaims struct {
	seed maphash.Seed
	one  hashTable
	many map[uint64]idSet
}

func (c *chanClaims) hash(k chanKey) uint64 {
	return nonzero(hashKey(c.seed, k.connNS, k.connName, k.channel))
}

// hashKey hashes three strings as one key.
func hashKey(seed maphash.Seed, a, b, c string) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	h.WriteString(a)
	h.WriteByte(0)
	h.WriteString(b)
	h.WriteByte(0)
	h.WriteString(c)
	return h.Sum64()
}

func (c *chanClaims) add(k chanKey, id int32) {
	h := c.hash(k)
	if s := c.many[h]; s != nil {
		s[id] = struct{}{}
		return
	}
	first, ok := c.one.find(h, nil)
	switch {
	case !ok:
		c.one.insert(h, id)
	case first != id:
		c.one.remove(h, first)
		c.many[h] = idSet{first: {}, id: {}}
	}
}

func (c *chanClaims) remove(k chanKey, id int32) {
	h := c.hash(k)
	if s := c.many[h]; s != nil {
		delete(s, id)
		if len(s) == 1 {
			delete(c.many, h)
			for last := range s {
				c.one.insert(h, last)
			}
		}
		return
	}
	c.one.remove(h, id)
}

// claimants adds every Binding that claims k to into.
func (e *Incremental) claimants(k chanKey, into idSet) {
	c := &e.deps.byChan
	h := c.hash(k)
	if id, ok := c.one.find(h, nil); ok {
		e.addIfClaims(id, k, into)
		return
	}
	for id := range c.many[h] {
		e.addIfClaims(id, k, into)
	}
}

func (e *Incremental) addIfClaims(id int32, k chanKey, into idSet) {
	d, _ := e.depsNow(id)
	for i := range d.n {
		if d.chans[i] == k {
			into[id] = struct{}{}
			return
		}
	}
}

// The Bindings that name an object are a set of their numbers, each
// number held as itself plus one (0 marks an empty slot).
func addTo(m map[objKey]*hashTable, k objKey, id int32) {
	s := m[k]
	if s == nil {
		s = &hashTable{set: true}
		m[k] = s
	}
	if !s.has(uint64(id) + 1) {
		s.insert(uint64(id)+1, 0)
	}
}

func removeFrom(m map[objKey]*hashTable, k objKey, id int32) {
	if s := m[k]; s != nil {
		s.remove(uint64(id)+1, 0)
		if s.n == 0 {
			delete(m, k)
		}
	}
}

// addDeps indexes what the Binding of a number reads, as it is held
// now; dropDeps drops it, before the Binding or its memory entry
// changes. Both do nothing without the Binding.
func (e *Incremental) addDeps(id int32)  { e.index(id, true) }
func (e *Incremental) dropDeps(id int32) { e.index(id, false) }

// index adds (or, with add false, removes) a Binding's number under
// every object it reads.
func (e *Incremental) index(id int32, add bool) {
	bd, ok := e.depsNow(id)
	if !ok {
		return
	}
	d := &e.deps
	edit, editChan := removeFrom, d.byChan.remove
	if add {
		edit, editChan = addTo, d.byChan.add
	}
	edit(d.byBackend, bd.backend, id)
	for i := range bd.n {
		edit(d.byConn, bd.conns[i], id)
		editChan(bd.chans[i], id)
	}
}

// around adds a Binding and every Binding that competes with it for a
// channel, now or in memory.
func (e *Incremental) around(id int32, into idSet) {
	into[id] = struct{}{}
	bd, ok := e.depsNow(id)
	if !ok {
		return
	}
	for i := range bd.n {
		e.claimants(bd.chans[i], into)
	}
}

// identityChecks counts what keeps objects out of an evaluation, so the
// evaluator knows in constant time whether the snapshot has any. A UID's
// uses are not counted in a map of their own: the evaluator's maps by
// kind tell how many objects have it (holders). Names are counted by a
// hash of kind, namespace and name: two names that share a hash count
// as shared, which only costs full evaluations (always right) until one
// of them goes.
type identityChecks struct {
	seed maphash.Seed
	// once holds the hashes counted once, many the counts above one.
	once   hashTable
	many   map[uint64]int32
	shared int // UIDs and names used more than once
	bad    int // objects and memory entries that are unusable on their own
}

// newIdentityChecks returns the counts, sized for n objects.
func newIdentityChecks(seed maphash.Seed, n int) identityChecks {
	return identityChecks{seed: seed, once: newHashTable(n, true), many: map[uint64]int32{}}
}

// countName adds d to the count of a hash and returns how the number of
// hashes counted more than once moved.
func (c *identityChecks) countName(h uint64, d int) int {
	before := 0
	if n, ok := c.many[h]; ok {
		before = int(n)
	} else if c.once.has(h) {
		before = 1
	}
	after := before + d
	if before == 1 {
		c.once.remove(h, 0)
	}
	delete(c.many, h)
	switch {
	case after == 1:
		c.once.insert(h, 0)
	case after > 1:
		c.many[h] = int32(after)
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
	c.shared += c.countName(nonzero(hashKey(c.seed, kind, ns, name)), d)
}

func (c *identityChecks) memory(m Served, d int) {
	if m.UID == "" || !m.hasSpec() {
		c.bad += d
	}
}

func (c *identityChecks) clean() bool { return c.shared == 0 && c.bad == 0 }
