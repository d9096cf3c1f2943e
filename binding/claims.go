package binding

import (
	"cmp"

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
// which keeps the state an evaluation holds per Binding to 72 bytes.
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
func (e *evaluator) resolve() {
	s, ix, st := e.s, e.ix, e.st
	for i := range s.Bindings {
		if ix.bindingOK[i] {
			resolveBinding(s, ix, i, &st[i])
		}
	}
}

// claimChannels decides the holder of every claimed channel. Claims are
// made only after every Binding is resolved, so the holder of a channel
// never depends on list order.
func (e *evaluator) claimChannels() {
	s, ix, st, holders := e.s, e.ix, e.st, e.holders
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
}

// resolveBinding runs the checks on one Binding's current generation and
// finds its remembered claim.
func resolveBinding(s *Snapshot, ix *index, i int, b *bstate) {
	o := &s.Bindings[i]
	b.spec = checkBinding(&o.Spec)
	if b.spec.backendOK {
		k := backendKey(o)
		b.backend = ix.backends[k]
		if b.backend != nil {
			b.backendDenied = !allows(k.ns, b.backend.allowed, o.Namespace)
		}
	}
	if b.spec.connOK {
		k := connKey(o)
		b.conn = ix.connections[k]
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
	b.oldConn = ix.connections[resolve(m.Binding.Chat.ConnectionRef, o.Namespace)]
	b.hasOld = b.oldConn != nil && b.conn != nil && m.Binding.Chat.Channel != ""
}
