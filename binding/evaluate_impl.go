package binding

import (
	"cmp"
	"slices"
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
func resolve(r Ref, ns string) objKey {
	if r.Namespace != "" {
		ns = r.Namespace
	}
	return objKey{ns, r.Name}
}

// older orders the competitors for a channel: creationTimestamp, then
// namespace, then name, each compared on its own; the UID breaks the last
// tie so the order is total.
func older(a, b *Binding) bool {
	if !a.CreationTimestamp.Equal(&b.CreationTimestamp) {
		return a.CreationTimestamp.Before(&b.CreationTimestamp)
	}
	if c := cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name)); c != 0 {
		return c < 0
	}
	return a.UID < b.UID
}

func evaluate(s *Snapshot, explain bool) Result {
	ix := buildIndex(s)
	ix.explain = explain
	st := make([]bstate, len(s.Bindings))
	holders := make(map[chanKey]int, len(s.Bindings))
	claim := func(k chanKey, i int) {
		if h, ok := holders[k]; !ok || older(&s.Bindings[i], &s.Bindings[h]) {
			holders[k] = i
		}
	}
	for i := range s.Bindings {
		if ix.bindingOK[i] {
			resolveBinding(s, ix, i, &st[i])
		}
	}
	// Claims are made only after every Binding is resolved, so the holder
	// of a channel never depends on list order.
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

	probes := indexProbes(s)
	res := Result{Bindings: make([]Outcome, 0, len(s.Bindings))}
	// The memory comes out sorted by kind (AgentBackend, Binding,
	// ChatConnection), then namespace, name and UID, and the results by
	// namespace, name and UID: walking positions sorted that way builds
	// both in order, sorting small integers rather than large values.
	mem := make([]Served, 0, len(s.Bindings)+len(s.Backends)+len(s.Connections))
	for _, i := range sortedPositions(len(s.Backends), func(i int) (string, string, string) {
		o := &s.Backends[i]
		return o.Namespace, o.Name, string(o.UID)
	}) {
		if info := &ix.backendList[i]; info.obj != nil && info.running != nil {
			o := info.obj
			mem = append(mem, Served{Kind: KindAgentBackend, Namespace: o.Namespace, Name: o.Name, UID: o.UID,
				Generation: info.runningGen, Backend: info.running})
		}
	}
	// Bindings are evaluated in input order (their data is read
	// sequentially) and each result lands at its sorted rank; holes left
	// by Bindings of other brokers are closed afterwards.
	order := sortedPositions(len(s.Bindings), func(i int) (string, string, string) {
		o := &s.Bindings[i]
		return o.Namespace, o.Name, string(o.UID)
	})
	rank := make([]int32, len(s.Bindings))
	for r, i := range order {
		rank[i] = int32(r)
	}
	res.Bindings = res.Bindings[:len(s.Bindings)]
	kept := make([]bool, len(s.Bindings))
	// A Binding's memory entry is its identity (read again from the
	// snapshot) and what it serves: only the latter is kept per rank.
	type servedAt struct {
		gen  int64
		spec *BindingSpec
	}
	bmem := make([]servedAt, len(s.Bindings))
	for i := range s.Bindings {
		if !ix.bindingOK[i] {
			continue
		}
		br, served, remember, owned := evaluateBinding(s, ix, st, holders, probes, i)
		if !owned {
			continue
		}
		r := rank[i]
		res.Bindings[r], kept[r] = br, true
		if remember {
			bmem[r] = servedAt{served.Generation, served.Binding}
		}
	}
	n := 0
	for r := range res.Bindings {
		if kept[r] {
			res.Bindings[n] = res.Bindings[r]
			n++
		}
		if m := bmem[r]; m.spec != nil {
			o := &s.Bindings[order[r]]
			mem = append(mem, Served{Kind: KindBinding, Namespace: o.Namespace, Name: o.Name, UID: o.UID, Generation: m.gen, Binding: m.spec})
		}
	}
	clear(res.Bindings[n:])
	res.Bindings = res.Bindings[:n]
	for _, i := range sortedPositions(len(s.Connections), func(i int) (string, string, string) {
		o := &s.Connections[i]
		return o.Namespace, o.Name, string(o.UID)
	}) {
		if info := &ix.connList[i]; info.obj != nil && info.running != nil {
			o := info.obj
			mem = append(mem, Served{Kind: KindChatConnection, Namespace: o.Namespace, Name: o.Name, UID: o.UID,
				Generation: info.runningGen, Connection: info.running})
		}
	}
	res.Memory.Served = mem
	res.IgnoredProbes = probes.ignored(s)
	res.Errors = ix.errors
	sortResult(&res)
	return res
}

// sortedPositions returns 0..n-1 ordered by the (namespace, name, uid)
// that id gives for each position.
func sortedPositions(n int, id func(int) (string, string, string)) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(i)
	}
	slices.SortFunc(out, func(a, b int32) int {
		ans, an, au := id(int(a))
		bns, bn, bu := id(int(b))
		return cmp.Or(cmp.Compare(ans, bns), cmp.Compare(an, bn), cmp.Compare(au, bu))
	})
	return out
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
			b.backendDenied = !allows(b.backendKey.ns, b.backend.allowed(), o.Namespace)
		}
	}
	if b.spec.connOK {
		b.connKey = resolve(o.Spec.Chat.ConnectionRef, o.Namespace)
		b.conn = ix.connections[b.connKey]
		if b.conn != nil {
			b.connDenied = !allows(b.connKey.ns, b.conn.allowed(), o.Namespace)
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
	if m == nil || m.Kind != KindBinding || m.Binding == nil {
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

// sortResult orders the lists evaluate does not build in order.
func sortResult(r *Result) {
	slices.SortFunc(r.IgnoredProbes, func(a, b IgnoredProbe) int {
		return cmp.Or(cmp.Compare(a.UID, b.UID), cmp.Compare(a.Generation, b.Generation),
			cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name), cmp.Compare(a.Why, b.Why))
	})
	slices.SortFunc(r.Errors, func(a, b ObjectError) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name),
			cmp.Compare(a.UID, b.UID), cmp.Compare(a.Problem, b.Problem))
	})
}
