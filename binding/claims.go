package binding

import (
	"cmp"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
)

// chanKey is what Bindings compete for: one channel on one connection.
type chanKey struct{ connNS, connName, channel string }

// bstate is the working state of one Binding during an evaluation.
type bstate struct {
	spec specCheck
	// The current generation's references, resolved.
	backendKey, connKey objKey
	backend             *backendInfo
	conn                *connInfo
	backendDenied       bool // NamespaceNotAllowed
	connDenied          bool
	// passes: the current generation passes every check but the channel.
	passes bool
	curKey chanKey
	hasCur bool
	// The generation the memory served before this evaluation.
	old    *Served
	oldKey chanKey
	hasOld bool
	// staleMemory: the memory describes a newer generation than the
	// snapshot's object.
	staleMemory bool
}

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
	claim := func(k chanKey, i int) {
		if h, ok := holders[k]; !ok || older(&s.Bindings[i], &s.Bindings[h]) {
			holders[k] = i
		}
	}
	for i := range st {
		if !ix.bindingOK[i] {
			continue
		}
		b := &st[i]
		if b.passes && b.hasCur {
			claim(b.curKey, i)
		}
		if b.hasOld && !(b.passes && b.hasCur && b.oldKey == b.curKey) {
			claim(b.oldKey, i)
		}
	}
}

// resolveBinding runs the checks on one Binding's current generation and
// finds its remembered claim.
func resolveBinding(s *Snapshot, ix *index, i int, b *bstate) {
	o := &s.Bindings[i]
	b.spec = checkBinding(&o.Spec)
	if b.spec.backendOK {
		b.backendKey = resolve(o.Spec.Agent.BackendRef, o.Namespace)
		b.backend = ix.backends[b.backendKey]
		if b.backend != nil {
			b.backendDenied = !allows(b.backendKey.ns, b.backend.allowed, o.Namespace)
		}
	}
	if b.spec.connOK {
		b.connKey = resolve(o.Spec.Chat.ConnectionRef, o.Namespace)
		b.conn = ix.connections[b.connKey]
		if b.conn != nil {
			b.connDenied = !allows(b.connKey.ns, b.conn.allowed, o.Namespace)
		}
	}
	b.passes = len(b.spec.problems) == 0 &&
		b.backend != nil && !b.backendDenied && (b.backend.problems == nil || b.backend.running != nil) &&
		b.conn != nil && !b.connDenied && (b.conn.problems == nil || b.conn.running != nil)
	if b.spec.connOK && b.spec.channelOK {
		b.curKey = chanKey{b.connKey.ns, b.connKey.name, o.Spec.Chat.Channel}
		b.hasCur = true
	}
	m := ix.memory[o.UID]
	if m == nil || m.Kind != akv1.KindBinding || m.Binding == nil {
		return
	}
	b.old = m
	b.staleMemory = m.Generation > o.Generation
	// A remembered generation runs only while the Binding has an owner
	// (its current connection reference resolves) and the connection it
	// ran on exists. A Binding no broker owns is written by every broker,
	// which agree only if none of them serves it.
	ck := resolve(m.Binding.Chat.ConnectionRef, o.Namespace)
	if c := ix.connections[ck]; c != nil && b.conn != nil && m.Binding.Chat.Channel != "" {
		b.oldKey = chanKey{ck.ns, ck.name, m.Binding.Chat.Channel}
		b.hasOld = true
	}
}
