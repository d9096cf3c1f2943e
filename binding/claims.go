package binding

import (
	"cmp"
	"time"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
)

// chanKey is what Bindings compete for: one channel on one connection.
type chanKey struct{ connNS, connName, channel string }

// claimKey is a channel claim as the evaluation keys it: the connection's
// info (one per existing ChatConnection, so the pointer names it) and
// the channel. It is half the size of a chanKey, and an evaluation holds
// one per Binding.
type claimKey struct {
	conn    *connInfo
	channel string
}

// bstate is the working state of one Binding during an evaluation. It
// keeps what the checks decided and the objects found, not the keys
// they were found by: those are read again from the Binding and its
// memory entry where needed (backendKey, connKey, curClaim, oldClaim),
// which keeps the state an evaluation holds per Binding to 80 bytes.
type bstate struct {
	spec specCheck
	// The current generation's references, resolved.
	backend *backendInfo
	conn    *connInfo
	// old is the generation the memory served before this evaluation;
	// oldConn is the connection it ran on, when that one exists.
	old           *Served
	oldConn       *connInfo
	backendDenied bool // NamespaceNotAllowed
	connDenied    bool
	// passes: the current generation passes every check but the channel.
	passes bool
	// hasCur: the current generation names a connection and a channel
	// that can be looked up (spec.connOK and spec.channelOK).
	hasCur bool
	// hasOld: the remembered generation claims its channel (oldClaim).
	hasOld bool
	// staleMemory: the memory describes a newer generation than the
	// snapshot's object.
	staleMemory bool
	// curHolder and oldHolder are the positions of the Bindings that hold
	// the channels of curClaim (when hasCur) and oldClaim (when hasOld),
	// or -1 when none holds it (claimChannels).
	curHolder, oldHolder int32
}

// backendKey and connKey are the objects the Binding's current
// generation names.
func backendKey(o *akv1.Binding) objKey { return resolve(o.Spec.Agent.BackendRef, o.Namespace) }
func connKey(o *akv1.Binding) objKey    { return resolve(o.Spec.Chat.ConnectionRef, o.Namespace) }

// curClaim is the channel the current generation claims; it names no
// connection when the one referred to does not exist, and nothing holds
// such a claim.
func (b *bstate) curClaim(o *akv1.Binding) claimKey { return claimKey{b.conn, o.Spec.Chat.Channel} }

// oldClaim is the channel the remembered generation claims (hasOld).
func (b *bstate) oldClaim() claimKey { return claimKey{b.oldConn, b.old.Binding.Chat.Channel} }

// resolve turns a reference into the key of the object it names.
func resolve(r akv1.Ref, ns string) objKey {
	if r.Namespace != "" {
		ns = r.Namespace
	}
	return objKey{ns, r.Name}
}

// older orders the competitors for a channel: creationTimestamp, then
// namespace, then name, each compared on its own; the UID breaks the last
// tie so the order is total.
func older(a, b *akv1.Binding) bool {
	if !a.CreationTimestamp.Equal(&b.CreationTimestamp) {
		return a.CreationTimestamp.Before(&b.CreationTimestamp)
	}
	if c := cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name)); c != 0 {
		return c < 0
	}
	return a.UID < b.UID
}

// resolve runs the checks on every Binding that takes part and resolves
// its references.
//
// A scratch kept from pass to pass (carry) remembers, by position, the
// objects each Binding's names were found as: while every identity is
// where it was, the lookups by name are the last pass's, so a name
// equal to the last one finds the same object.
func (e *evaluator) resolve() {
	s, ix, st, sc := e.s, e.ix, e.st, e.sc
	var kept []keptRefs
	if k := sc.carry; k != nil {
		if !sc.sameIDs || len(k.refs) != len(s.Bindings) {
			k.refs = reuse(k.refs, len(s.Bindings))
		}
		kept = k.refs
	}
	// Whether every Binding claims what it claimed in the last pass is
	// found in the same walk, while the Binding is at hand (sameClaim).
	var claims []claimIn
	if sc.carry != nil && sc.sameIDs && len(sc.carry.claims) == len(st) {
		claims = sc.carry.claims
	}
	for i := range s.Bindings {
		if ix.bindingOK[i] {
			var k *keptRefs
			if kept != nil {
				k = &kept[i]
			}
			resolveBinding(s, ix, i, &st[i], k, sc)
		}
		if claims != nil && !sameClaim(e, i, &claims[i]) {
			claims = nil
		}
	}
	sc.claimsKept = claims != nil
}

// keptRefs are what one Binding's names were found as in the last pass.
type keptRefs struct {
	backend       found[backendInfo]
	conn, oldConn found[connInfo]
}

// found is one lookup by namespaced name and what it found.
type found[V any] struct {
	key objKey
	v   *V
	set bool
}

// lookup finds k in m, or takes what kept found for k (kept nil: no
// pass is kept), and keeps it.
func lookup[V any](m map[objKey]*V, k objKey, kept *found[V]) *V {
	if kept == nil {
		return m[k]
	}
	if !kept.set || kept.key != k {
		*kept = found[V]{key: k, v: m[k], set: true}
	}
	return kept.v
}

// claimChannels decides the holder of every claimed channel and notes,
// in each Binding's state, the holders of the channels it names. Claims
// are made only after every Binding is resolved, so the holder of a
// channel never depends on list order.
func (e *evaluator) claimChannels() {
	sc := e.sc
	if sc.claimsKept {
		return
	}
	s, ix, st := e.s, e.ix, e.st
	holders := reuseMap(sc.holders, len(st))
	sc.holders = holders
	claim := func(k claimKey, i int) {
		if h, ok := holders[k]; !ok || older(&s.Bindings[i], &s.Bindings[h]) {
			holders[k] = int32(i)
		}
	}
	for i := range st {
		if !ix.bindingOK[i] {
			continue
		}
		b, o := &st[i], &s.Bindings[i]
		cur := b.passes && b.hasCur
		if cur {
			claim(b.curClaim(o), i)
		}
		if b.hasOld {
			if old := b.oldClaim(); !cur || old != b.curClaim(o) {
				claim(old, i)
			}
		}
	}
	holderOf := func(k claimKey) int32 {
		if h, ok := holders[k]; ok {
			return h
		}
		return -1
	}
	for i := range st {
		b := &st[i]
		b.curHolder, b.oldHolder = -1, -1
		if !ix.bindingOK[i] {
			continue
		}
		if b.hasCur {
			b.curHolder = holderOf(b.curClaim(&s.Bindings[i]))
		}
		if b.hasOld {
			b.oldHolder = holderOf(b.oldClaim())
		}
	}
	sc.noteClaims(e)
}

// resolveBinding runs the checks on one Binding's current generation and
// finds its remembered claim.
func resolveBinding(s *Snapshot, ix *index, i int, b *bstate, kept *keptRefs, sc *scratch) {
	o := &s.Bindings[i]
	b.spec = sc.bindingCheck(i, &o.Spec)
	var kb *found[backendInfo]
	var kc, ko *found[connInfo]
	if kept != nil {
		kb, kc, ko = &kept.backend, &kept.conn, &kept.oldConn
	}
	if b.spec.backendOK {
		k := backendKey(o)
		b.backend = lookup(ix.backends, k, kb)
		if b.backend != nil {
			b.backendDenied = !allows(k.ns, b.backend.allowed, o.Namespace)
		}
	}
	if b.spec.connOK {
		k := connKey(o)
		b.conn = lookup(ix.connections, k, kc)
		if b.conn != nil {
			b.connDenied = !allows(k.ns, b.conn.allowed, o.Namespace)
		}
	}
	b.passes = len(b.spec.problems) == 0 &&
		b.backend != nil && !b.backendDenied && (b.backend.problems == nil || b.backend.running != nil) &&
		b.conn != nil && !b.connDenied && (b.conn.problems == nil || b.conn.running != nil)
	b.hasCur = b.spec.connOK && b.spec.channelOK
	m := ix.memoryAt(i)
	if m == nil || m.Kind != akv1.KindBinding || m.Binding == nil {
		return
	}
	b.old = m
	b.staleMemory = m.Generation > o.Generation
	// A remembered generation runs only while the Binding has an owner
	// (its current connection reference resolves) and the connection it
	// ran on exists. A Binding no broker owns is written by every broker,
	// which agree only if none of them serves it.
	b.oldConn = lookup(ix.connections, resolve(m.Binding.Chat.ConnectionRef, o.Namespace), ko)
	b.hasOld = b.oldConn != nil && b.conn != nil && m.Binding.Chat.Channel != ""
}

// claimIn is what decides the holders of one Binding's channels, as
// claimChannels read it, with the holders it found.
type claimIn struct {
	cur, old             claimKey // zero unless hasCur, hasOld
	created              time.Time
	ok, passes           bool
	curHolder, oldHolder int32
}

func claimInOf(ix *index, st []bstate, s *Snapshot, i int) claimIn {
	b, o := &st[i], &s.Bindings[i]
	in := claimIn{created: o.CreationTimestamp.Time, ok: ix.bindingOK[i], passes: b.passes,
		curHolder: b.curHolder, oldHolder: b.oldHolder}
	if in.ok && b.hasCur {
		in.cur = b.curClaim(o)
	}
	if in.ok && b.hasOld {
		in.old = b.oldClaim()
	}
	return in
}

// sameClaim reports that the Binding at position i claims what it
// claimed in the last pass (was), with the same identity and creation
// time, and sets the holders found then in its state. When every
// Binding does, the holders are the last pass's (claimChannels). A claim
// names its connection by the pointer to the connection's info; with
// every identity where it was, each connection keeps its position and so
// its info's pointer.
func sameClaim(e *evaluator, i int, was *claimIn) bool {
	b, o := &e.st[i], &e.s.Bindings[i]
	b.curHolder, b.oldHolder = was.curHolder, was.oldHolder
	// claimInOf's fields, compared where they lie.
	ok := e.ix.bindingOK[i]
	if ok != was.ok || b.passes != was.passes || !o.CreationTimestamp.Time.Equal(was.created) {
		return false
	}
	var cur, old claimKey
	if ok && b.hasCur {
		cur = b.curClaim(o)
	}
	if ok && b.hasOld {
		old = b.oldClaim()
	}
	return cur.is(was.cur) && old.is(was.old)
}

// is reports k == o, decided without a call when the channels share
// their bytes.
func (k claimKey) is(o claimKey) bool { return k.conn == o.conn && sameString(k.channel, o.channel) }

// noteClaims records this pass's claims and holders for sameClaim.
func (sc *scratch) noteClaims(e *evaluator) {
	k := sc.carry
	if k == nil {
		return
	}
	k.claims = reuse(k.claims, len(e.st))
	for i := range e.st {
		k.claims[i] = claimInOf(e.ix, e.st, e.s, i)
	}
}
