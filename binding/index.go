package binding

import (
	"hash/maphash"
	"slices"
	"unsafe"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/internal/wholesec"
)

// wholeSeconds is bs with the instants of each Binding's metadata
// (creationTimestamp, deletionTimestamp) read at whole seconds, as the
// API server stores them: bs itself when none has a fraction, else a
// copy. Every rule reads the Bindings through it, so two Bindings created
// within one second tie on time (and the holder of a channel is the
// first by namespace, then name). The lastTransitionTimes of a Binding's
// conditions are read at whole seconds where its conditions are read,
// when it is decided (decide), so a condition is left over from an
// earlier Binding only when it is a whole second older. Probe results,
// the memory and Now are not objects' instants and keep their
// nanoseconds. AgentBackends and ChatConnections carry no instant a rule
// reads.
func wholeSeconds(bs []akv1.Binding) []akv1.Binding {
	return wholesec.Objects(bs, func(b *akv1.Binding) bool {
		return wholesec.MetaWhole(&b.ObjectMeta)
	}, func(b *akv1.Binding) {
		wholesec.FixMeta(&b.ObjectMeta)
	})
}

// objKey is a namespaced name; struct keys avoid building strings.
type objKey struct{ ns, name string }

// refInfo is one usable object a Binding refers to (an AgentBackend or a
// ChatConnection) and what this evaluation decided about it. Both kinds
// are judged by the same steps.
type refInfo[O, S any] struct {
	obj      *O
	problems problems // of its current generation; nil when valid
	// running is the spec that runs: the current one when valid, else the
	// remembered good one; nil when none runs.
	running    *S
	runningGen int64
	// allowed is the allowedNamespaces list in force: the running spec's,
	// or the current one's when nothing runs.
	allowed []string
}

type (
	backendInfo = refInfo[akv1.AgentBackend, akv1.AgentBackendSpec]
	connInfo    = refInfo[akv1.ChatConnection, akv1.ChatConnectionSpec]
)

// connBroker is the broker that owns the connection: the running spec's,
// else the current spec's as written.
func connBroker(c *connInfo) string {
	if c.running != nil {
		return c.running.Broker
	}
	return c.obj.Spec.Broker
}

// index holds the snapshot grouped for constant-time lookups.
type index struct {
	backends    map[objKey]*backendInfo
	connections map[objKey]*connInfo
	// backendList and connList hold the infos by position in the
	// snapshot; obj is nil for an object left out.
	backendList []backendInfo
	connList    []connInfo
	// served is the memory the snapshot reads, and memPos the position
	// in it of each object's entry, by the object's position across the
	// three lists (Bindings, AgentBackends, ChatConnections); -1 for
	// none.
	served []Served
	memPos []int32
	// bindingOK marks, by position, the Bindings that take part; the
	// others have an identity problem in errors.
	bindingOK []bool
	errors    []ObjectError
}

// memoryAt returns the memory entry of the object at position i across
// the three lists, or nil.
func (ix *index) memoryAt(i int) *Served {
	if p := ix.memPos[i]; p >= 0 {
		return &ix.served[p]
	}
	return nil
}

// identityProblem says what keeps an object out of the evaluation
// altogether, or "" when it can take part.
func identityProblem(ns, name string, uid types.UID, gen int64) string {
	switch {
	case name == "":
		return "metadata.name is required"
	case ns == "":
		return "metadata.namespace is required"
	case uid == "":
		return "metadata.uid is required"
	case gen < 0:
		return "metadata.generation must not be negative"
	}
	return ""
}

type identity struct {
	kind, ns, name string
	uid            types.UID
	gen            int64
}

// buildIndex groups the snapshot into sc.ix, reusing sc's buffers.
// Objects that share a UID, or a kind and namespaced name, are all left
// out: which one is real cannot be told without depending on list order.
//
// What depends only on the objects' identities (which are left out, the
// lookups by namespaced name, where each object's memory entry lies) is
// kept from the last pass when every position of the lists holds the
// same identity as then (sameIdentities, sameMemory): a host that
// evaluates one snapshot over and over pays a comparison per object
// instead of a map insert per object and index.
func buildIndex(s *Snapshot, sc *scratch) {
	ix := &sc.ix
	// A single pass (no carry) has no last pass to compare with, and no
	// next one to note its identities for: on 100,000 Bindings the notes
	// were 7 MB of a one-shot evaluation's peak.
	sameIDs, sameMem := false, false
	if sc.carry != nil {
		sameIDs = sc.sameIdentities(s)
		sameMem = sc.sameMemory(s) && sameIDs
	}
	sc.sameIDs = sameIDs
	*ix = index{
		backends:    ix.backends,
		connections: ix.connections,
		backendList: ix.backendList,
		connList:    ix.connList,
		served:      s.Served.Objects,
		memPos:      ix.memPos,
		errors:      sc.errors[:0],
	}
	if !sameIDs {
		ix.backends = reuseMap(ix.backends, len(s.Backends))
		ix.connections = reuseMap(ix.connections, len(s.Connections))
		checkIdentities(s, sc)
	}
	ok := sc.ok
	if sc.carry != nil {
		sc.carry.checks.sized(s)
	}
	ix.errors = append(ix.errors, sc.idErrors...)
	if !sameMem {
		buildMemory(s, sc)
	}

	ix.bindingOK = ok[:len(s.Bindings)]
	// One slice per kind holds the infos, so indexing costs two
	// allocations, not one per object. The lists keep their arrays, so
	// the lookups by name, when kept, still point at them.
	backends := reuse(ix.backendList, len(s.Backends))
	conns := reuse(ix.connList, len(s.Connections))
	ix.backendList, ix.connList = backends, conns
	off := len(s.Bindings)
	for i := range s.Backends {
		if !ok[off+i] {
			continue
		}
		o := &s.Backends[i]
		info := &backends[i]
		*info = backendInfo{obj: o, problems: sc.backendCheck(i, &o.Spec)}
		if info.problems == nil {
			info.running, info.runningGen = &o.Spec, o.Generation
		} else if m := ix.memoryAt(off + i); m != nil && m.Kind == akv1.KindAgentBackend && m.Backend != nil && m.Generation <= o.Generation {
			info.running, info.runningGen = m.Backend, m.Generation
		}
		info.allowed = o.Spec.AllowedNamespaces
		if info.running != nil {
			info.allowed = info.running.AllowedNamespaces
		}
		if !sameIDs {
			ix.backends[objKey{o.Namespace, o.Name}] = info
		}
	}
	off += len(s.Backends)
	for i := range s.Connections {
		if !ok[off+i] {
			continue
		}
		o := &s.Connections[i]
		info := &conns[i]
		*info = connInfo{obj: o, problems: sc.connCheck(i, &o.Spec)}
		if info.problems == nil {
			info.running, info.runningGen = &o.Spec, o.Generation
		} else if m := ix.memoryAt(off + i); m != nil && m.Kind == akv1.KindChatConnection && m.Connection != nil && m.Generation <= o.Generation {
			info.running, info.runningGen = m.Connection, m.Generation
		}
		info.allowed = o.Spec.AllowedNamespaces
		if info.running != nil {
			info.allowed = info.running.AllowedNamespaces
		}
		if !sameIDs {
			ix.connections[objKey{o.Namespace, o.Name}] = info
		}
	}
	sc.errors = ix.errors
}

// idKey is what the identity checks read of one object.
type idKey struct {
	ns, name string
	uid      types.UID
	negative bool // a negative generation
}

// identityAt reads the identity of the object at position i across the
// three lists, where it lies, rather than from a copy.
func identityAt(s *Snapshot, i int) identity {
	if i < len(s.Bindings) {
		o := &s.Bindings[i]
		return identity{akv1.KindBinding, o.Namespace, o.Name, o.UID, o.Generation}
	}
	if i -= len(s.Bindings); i < len(s.Backends) {
		o := &s.Backends[i]
		return identity{akv1.KindAgentBackend, o.Namespace, o.Name, o.UID, o.Generation}
	}
	o := &s.Connections[i-len(s.Backends)]
	return identity{akv1.KindChatConnection, o.Namespace, o.Name, o.UID, o.Generation}
}

// sameIdentities reports that every position of the three lists holds
// the identity it held in the last pass, and records the current ones.
func (sc *scratch) sameIdentities(s *Snapshot) bool {
	n := len(s.Bindings) + len(s.Backends) + len(s.Connections)
	lens := [3]int{len(s.Bindings), len(s.Backends), len(s.Connections)}
	same := sc.primed && sc.lens == lens
	sc.primed, sc.lens = false, lens // until checkIdentities has run
	if !same {
		sc.idKeys = reuse(sc.idKeys, n)
	}
	keys := sc.idKeys
	for i := range s.Bindings {
		same = keys[i].note(&s.Bindings[i].ObjectMeta) && same
	}
	keys = keys[len(s.Bindings):]
	for i := range s.Backends {
		same = keys[i].note(&s.Backends[i].ObjectMeta) && same
	}
	keys = keys[len(s.Backends):]
	for i := range s.Connections {
		same = keys[i].note(&s.Connections[i].ObjectMeta) && same
	}
	sc.primed = same
	return same
}

// note reports whether k is the identity m gives, and makes it so.
func (k *idKey) note(m *metav1.ObjectMeta) bool {
	// Equal strings of an object left as it was share their bytes: the
	// common case is decided by pointers alone.
	if sameString(k.ns, m.Namespace) && sameString(k.name, m.Name) && sameString(string(k.uid), string(m.UID)) &&
		k.negative == (m.Generation < 0) {
		return true
	}
	*k = idKey{m.Namespace, m.Name, m.UID, m.Generation < 0}
	return false
}

// sameString is a == b, decided without a call when both share their
// bytes or differ in length.
func sameString(a, b string) bool {
	return len(a) == len(b) && (unsafe.StringData(a) == unsafe.StringData(b) || a == b)
}

// checkIdentities decides which objects take part (sc.ok) and why the
// others do not (sc.idErrors).
//
// An object shares its UID, or its kind and namespaced name, with another
// when an earlier object of the same hash of it has the same one, compared
// in full: the tables hold a 64-bit hash and a position per object, not
// the strings (on 100,000 Bindings 11 MB of a pass's working memory, as
// counts keyed by the strings). Objects whose hash is the first's but
// whose UID or name is not are counted exactly in a map of their own,
// empty but for such a rare meeting.
func checkIdentities(s *Snapshot, sc *scratch) {
	n := len(s.Bindings) + len(s.Backends) + len(s.Connections)
	if !sc.seeded {
		sc.seed, sc.seeded = maphash.MakeSeed(), true
	}
	uids := reuseMap(sc.uids, n)
	names := reuseMap(sc.names, n)
	sc.uids, sc.names = uids, names
	shared := reuse(sc.shared, n)
	sc.shared = shared
	var otherUIDs map[types.UID]int32
	var otherNames map[nameKey]int32
	for i := range n {
		id := identityAt(s, i)
		if id.uid != "" {
			h := maphash.String(sc.seed, string(id.uid)) & identityHashMask
			if f, seen := uids[h]; !seen {
				uids[h] = int32(i)
			} else if identityAt(s, int(f)).uid == id.uid {
				shared[f] |= sharedUID
				shared[i] |= sharedUID
			} else {
				otherUIDs = noteOther(otherUIDs, id.uid, i, shared, sharedUID)
			}
		}
		h := nameHash(sc.seed, id.kind, id.ns, id.name)
		if f, seen := names[h]; !seen {
			names[h] = int32(i)
		} else if first := identityAt(s, int(f)); first.kind == id.kind && first.ns == id.ns && first.name == id.name {
			shared[f] |= sharedName
			shared[i] |= sharedName
		} else {
			otherNames = noteOther(otherNames, nameKey{id.kind, id.ns, id.name}, i, shared, sharedName)
		}
	}
	ok := reuse(sc.ok, n)
	sc.ok = ok
	sc.idErrors = sc.idErrors[:0]
	for i := range n {
		id := identityAt(s, i)
		p := identityProblem(id.ns, id.name, id.uid, id.gen)
		switch {
		case p != "":
		case shared[i]&sharedUID != 0:
			p = "metadata.uid is shared with another object"
		case shared[i]&sharedName != 0:
			p = "another " + id.kind + " has the same namespace and name"
		}
		if p != "" {
			sc.idErrors = append(sc.idErrors, ObjectError{Kind: id.kind, Namespace: id.ns, Name: id.name, UID: id.uid, Problem: p})
			continue
		}
		ok[i] = true
	}
	sc.primed = true
}

// What an object shares with another (checkIdentities).
const (
	sharedUID uint8 = 1 << iota
	sharedName
)

// identityHashMask is applied to every identity hash; a test clears it
// to send every identity down the path of hashes shared by different
// names and UIDs.
var identityHashMask = ^uint64(0)

// nameHash is the hash of a kind and namespaced name.
func nameHash(seed maphash.Seed, kind, ns, name string) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	h.WriteString(kind)
	h.WriteByte(0)
	h.WriteString(ns)
	h.WriteByte(0)
	h.WriteString(name)
	return h.Sum64() & identityHashMask
}

// noteOther counts key, met at position i, in m (made when nil), marking
// both positions with mark when key was met before.
func noteOther[K comparable](m map[K]int32, key K, i int, shared []uint8, mark uint8) map[K]int32 {
	if m == nil {
		m = map[K]int32{}
	}
	if f, seen := m[key]; seen {
		shared[f] |= mark
		shared[i] |= mark
	} else {
		m[key] = int32(i)
	}
	return m
}

// sameMemory reports that the memory holds, at every position, an entry
// of the UID it held in the last pass, that every entry is usable, and
// that the last pass found no UID twice: where each object's entry lies
// is then what it was. It records the current UIDs.
func (sc *scratch) sameMemory(s *Snapshot) bool {
	objs := s.Served.Objects
	same := sc.memClean && len(sc.memUIDs) == len(objs)
	if !same {
		sc.memUIDs = reuse(sc.memUIDs, len(objs))
	}
	for i := range objs {
		e := &objs[i]
		if same && (sc.memUIDs[i] != e.UID || e.UID == "" || !e.hasSpec()) {
			same = false
		}
		sc.memUIDs[i] = e.UID
	}
	return same
}

// buildMemory finds each object's memory entry (ix.memPos). When
// entries for one UID disagree, the highest generation wins; a tie
// between different entries drops the UID, since no order-free choice
// exists.
func buildMemory(s *Snapshot, sc *scratch) {
	ix := &sc.ix
	objs := s.Served.Objects
	m := reuseMap(sc.memIndex, len(objs))
	sc.memIndex = m
	clean := true
	var dropped map[types.UID]bool
	for i := range objs {
		e := &objs[i]
		if e.UID == "" || !e.hasSpec() {
			ix.errors = append(ix.errors, ObjectError{Kind: e.Kind, Namespace: e.Namespace, Name: e.Name, UID: e.UID,
				Problem: "memory entry lacks a uid or the spec of its kind"})
			clean = false
			continue
		}
		p, seen := m[e.UID]
		if seen {
			clean = false
		}
		switch {
		case !seen || e.Generation > objs[p].Generation:
			m[e.UID] = int32(i)
			if dropped != nil {
				delete(dropped, e.UID)
			}
		case e.Generation == objs[p].Generation && !sameServed(e, &objs[p]):
			if dropped == nil {
				dropped = map[types.UID]bool{}
			}
			dropped[e.UID] = true
		}
	}
	for uid := range dropped {
		e := &objs[m[uid]]
		ix.errors = append(ix.errors, ObjectError{Kind: e.Kind, Namespace: e.Namespace, Name: e.Name, UID: uid,
			Problem: "memory holds different entries for one uid and generation"})
		delete(m, uid)
	}
	sc.memClean = clean
	n := len(s.Bindings) + len(s.Backends) + len(s.Connections)
	pos := reuse(ix.memPos, n)
	ix.memPos = pos
	for i := range n {
		pos[i] = -1
		if !sc.ok[i] {
			continue
		}
		if p, ok := m[identityAt(s, i).uid]; ok {
			pos[i] = p
		}
	}
}

func (e *Served) hasSpec() bool {
	switch e.Kind {
	case akv1.KindBinding:
		return e.Binding != nil
	case akv1.KindAgentBackend:
		return e.Backend != nil
	case akv1.KindChatConnection:
		return e.Connection != nil
	}
	return false
}

// sameServed compares two memory entries of one UID and generation.
func sameServed(a, b *Served) bool {
	if a.Kind != b.Kind || a.Namespace != b.Namespace || a.Name != b.Name {
		return false
	}
	switch a.Kind {
	case akv1.KindBinding:
		return *a.Binding == *b.Binding
	case akv1.KindAgentBackend:
		return sameBackendSpec(a.Backend, b.Backend)
	default:
		return sameConnSpec(a.Connection, b.Connection)
	}
}

func sameSecretRef(a, b *akv1.SecretKeyRef) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func sameBackendSpec(a, b *akv1.AgentBackendSpec) bool {
	return a.URL == b.URL && a.CardPath == b.CardPath && sameSecretRef(a.AuthSecretRef, b.AuthSecretRef) &&
		slices.Equal(a.AllowedNamespaces, b.AllowedNamespaces)
}

func sameConnSpec(a, b *akv1.ChatConnectionSpec) bool {
	return a.Platform == b.Platform && a.Broker == b.Broker && sameSecretRef(a.TokenSecretRef, b.TokenSecretRef) &&
		slices.Equal(a.AllowedNamespaces, b.AllowedNamespaces)
}
