package bindinghost

import (
	"cmp"
	"reflect"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
)

type uidSet = map[types.UID]struct{}

// object is a pointer to one of the three kinds.
type object[T any] interface {
	*T
	metav1.Object
}

// held is what the host has told the evaluator of one kind: a copy of
// each object by UID and the UID in force for each namespaced name.
type held[T any, P object[T]] struct {
	byUID  map[types.UID]P
	byName map[types.NamespacedName]types.UID
}

func newHeld[T any, P object[T]]() held[T, P] {
	return held[T, P]{byUID: map[types.UID]P{}, byName: map[types.NamespacedName]types.UID{}}
}

func nameOf(o metav1.Object) types.NamespacedName {
	return types.NamespacedName{Namespace: o.GetNamespace(), Name: o.GetName()}
}

// put keeps a copy of *o, never o itself: o may point into a listing,
// which a pointer kept here would keep alive whole, pass after pass.
func (k *held[T, P]) put(o P) {
	if old := k.byUID[o.GetUID()]; old != nil && nameOf(old) != nameOf(o) {
		delete(k.byName, nameOf(old))
	}
	c := *o
	k.byUID[o.GetUID()] = P(&c)
	k.byName[nameOf(o)] = o.GetUID()
}

func (k *held[T, P]) remove(uid types.UID) {
	if old := k.byUID[uid]; old != nil {
		if k.byName[nameOf(old)] == uid {
			delete(k.byName, nameOf(old))
		}
		delete(k.byUID, uid)
	}
}

// reconcile brings the evaluator's object of one name to cur (nil: there
// is none): the object it held under that name is deleted if cur has
// another UID, and cur is set unless the evaluator holds it at the same
// resourceVersion.
func reconcile[T any, P object[T]](k *held[T, P], name types.NamespacedName, cur P, set func(P), del func(types.UID)) {
	if uid, had := k.byName[name]; had && (cur == nil || cur.GetUID() != uid) {
		del(uid)
	}
	if cur == nil {
		return
	}
	if old := k.byUID[cur.GetUID()]; old != nil && old.GetResourceVersion() == cur.GetResourceVersion() {
		return
	}
	set(cur)
}

// syncList reconciles one kind with a complete listing: every listed
// object, and every held name the listing no longer has.
func syncList[T any, P object[T]](k *held[T, P], listed []T, set func(P), del func(types.UID)) {
	seen := make(map[types.NamespacedName]struct{}, len(listed))
	for i := range listed {
		p := P(&listed[i])
		seen[nameOf(p)] = struct{}{}
		reconcile(k, nameOf(p), p, set, del)
	}
	for n, uid := range k.byName {
		if _, ok := seen[n]; !ok {
			del(uid)
		}
	}
}

// hasUIDs reports whether every listed object has a UID: the evaluator
// keeps objects by UID, and an object without one sends the host back to
// full passes (see the package doc).
func hasUIDs[T any, P object[T]](listed []T) bool {
	for i := range listed {
		if P(&listed[i]).GetUID() == "" {
			return false
		}
	}
	return true
}

// state is the host's per-event view of the evaluation: the outcomes and
// memory the evaluator's Steps reported, and what it must still be told.
type state struct {
	inc         *binding.Incremental // nil: the next pass lists everything and builds it
	bindings    held[akv1.Binding, *akv1.Binding]
	backends    held[akv1.AgentBackend, *akv1.AgentBackend]
	connections held[akv1.ChatConnection, *akv1.ChatConnection]

	outcomes  map[types.UID]binding.Outcome
	dirty     uidSet // Bindings re-evaluated since the writer last decided them
	wantWrite uidSet // Bindings whose outcome the engine would write
	memOut    map[types.UID]binding.Served
	memIn     map[types.UID]binding.Served // the memory the evaluator reads
	memDirty  uidSet                       // memOut entries moved since they were passed on
	probesDue uidSet                       // RecordProbe results not yet told
	rewritten uidSet                       // Bindings written since the last pass
	brokerIn  binding.Broker
	nowIn     time.Time
	errors    []binding.ObjectError
	// reevaluated counts the outcomes Steps recomputed in this pass.
	reevaluated int
}

func newState() state {
	return state{
		bindings: newHeld[akv1.Binding](), backends: newHeld[akv1.AgentBackend](), connections: newHeld[akv1.ChatConnection](),
		outcomes: map[types.UID]binding.Outcome{}, dirty: uidSet{}, wantWrite: uidSet{},
		memOut: map[types.UID]binding.Served{}, memIn: map[types.UID]binding.Served{}, memDirty: uidSet{},
		probesDue: uidSet{}, rewritten: uidSet{},
	}
}

// take records what one Step did.
func (h *Host) take(st binding.Step) {
	s := &h.st
	s.reevaluated += len(st.Bindings)
	if st.Full {
		for uid := range s.memOut {
			s.memDirty[uid] = struct{}{}
		}
		clear(s.memOut)
		// Only a full evaluation can meet an object that cannot take
		// part: a partial Step means the snapshot has none.
		s.errors = h.st.inc.Result().Errors
	} else {
		s.errors = nil
	}
	for _, r := range st.Bindings {
		s.outcomes[r.UID] = r
		s.dirty[r.UID] = struct{}{}
		if r.Write {
			s.wantWrite[r.UID] = struct{}{}
		} else {
			delete(s.wantWrite, r.UID)
		}
	}
	for _, uid := range st.Gone {
		delete(s.outcomes, uid)
		delete(s.dirty, uid)
		delete(s.wantWrite, uid)
	}
	for _, m := range st.Remembered {
		s.memOut[m.UID] = m
		s.memDirty[m.UID] = struct{}{}
	}
	for _, uid := range st.Forgotten {
		delete(s.memOut, uid)
		s.memDirty[uid] = struct{}{}
	}
}

// adopt takes a full result as the whole view: every outcome is decided.
func (h *Host) adopt(r binding.Result, served map[types.UID]binding.Served) {
	s := &h.st
	clear(s.outcomes)
	clear(s.dirty)
	clear(s.wantWrite)
	clear(s.memOut)
	clear(s.memDirty)
	clear(s.rewritten)
	s.memIn = served
	for uid := range served {
		s.memDirty[uid] = struct{}{}
	}
	// Every entry is passed on at the next pass, where it differs from
	// what this one read.
	h.take(binding.Step{Bindings: r.Bindings, Remembered: r.Memory.Objects})
	s.errors = r.Errors
	s.reevaluated = len(r.Bindings)
}

// passMemoryOn tells the evaluator of the memory the last pass left, as
// a full pass reads the previous pass's Result.Memory.
func (h *Host) passMemoryOn() {
	s := &h.st
	feed := s.memDirty
	s.memDirty = uidSet{}
	for _, uid := range sortedUIDs(feed) {
		out, ok := s.memOut[uid]
		in, had := s.memIn[uid]
		switch {
		case ok && (!had || !reflect.DeepEqual(out, in)):
			s.memIn[uid] = out
			h.take(s.inc.SetServed(out))
		case !ok && had:
			delete(s.memIn, uid)
			h.take(s.inc.DeleteServed(uid))
		}
	}
}

// showOwnWrites tells the evaluator that the Bindings written in the last
// pass carry what was written, while the host still reads them at the
// resourceVersion the write started from. A Binding read again in this
// pass was shown so by setBinding already.
func (h *Host) showOwnWrites() {
	s := &h.st
	for _, uid := range sortedUIDs(s.rewritten) {
		o := s.bindings.byUID[uid]
		if o == nil {
			continue
		}
		if c := *o; showOwnWrite(h.pending, &c) {
			s.bindings.put(&c)
			h.take(s.inc.SetBinding(c))
		}
	}
	clear(s.rewritten)
}

// showOwnWrite makes o carry the conditions of the host's last write of
// it while o is still at the resourceVersion that write started from: a
// cached read from before the write. It reports whether it did. A write
// o has moved on from is dropped from pending: o's status is then the
// API server's own.
func showOwnWrite(pending map[types.UID]ownWrite, o *akv1.Binding) bool {
	w, ok := pending[o.UID]
	if !ok {
		return false
	}
	if o.ResourceVersion != w.from {
		delete(pending, o.UID)
		return false
	}
	o.Status.Conditions = w.conditions
	return true
}

func (h *Host) setBinding(o *akv1.Binding) {
	// Read again: shown with our own write here, not by showOwnWrites.
	delete(h.st.rewritten, o.UID)
	showOwnWrite(h.pending, o)
	h.st.bindings.put(o)
	h.take(h.st.inc.SetBinding(*o))
}

// deleteBinding forgets a Binding and everything kept for its UID.
func (h *Host) deleteBinding(uid types.UID) {
	h.st.bindings.remove(uid)
	h.take(h.st.inc.DeleteBinding(uid))
	if _, ok := h.probes[uid]; ok {
		delete(h.probes, uid)
		h.take(h.st.inc.SetProbes(uid, nil))
	}
	delete(h.writers, uid)
	delete(h.pending, uid)
}

func (h *Host) setBackend(o *akv1.AgentBackend) {
	h.st.backends.put(o)
	h.take(h.st.inc.SetBackend(*o))
}

func (h *Host) deleteBackend(uid types.UID) {
	h.st.backends.remove(uid)
	h.take(h.st.inc.DeleteBackend(uid))
}

func (h *Host) setConnection(o *akv1.ChatConnection) {
	h.st.connections.put(o)
	h.take(h.st.inc.SetConnection(*o))
}

func (h *Host) deleteConnection(uid types.UID) {
	h.st.connections.remove(uid)
	h.take(h.st.inc.DeleteConnection(uid))
}

// tellProbes hands the evaluator the probe results recorded since the
// last pass; a result for a UID that is not a Binding is dropped, as a
// full pass drops it.
func (h *Host) tellProbes() {
	s := &h.st
	for _, uid := range sortedUIDs(s.probesDue) {
		p, ok := h.probes[uid]
		if !ok {
			continue
		}
		if s.bindings.byUID[uid] == nil {
			delete(h.probes, uid)
			continue
		}
		h.take(s.inc.SetProbes(uid, []binding.ProbeResult{p}))
	}
	clear(s.probesDue)
}

// tellBrokerAndTime hands the evaluator the broker's state and the
// pass's instant when they moved.
func (h *Host) tellBrokerAndTime(b binding.Broker, now time.Time) {
	s := &h.st
	if !sameBroker(b, s.brokerIn) {
		s.brokerIn = b
		h.take(s.inc.SetBroker(b))
	}
	if !now.Equal(s.nowIn) || now.Location() != s.nowIn.Location() {
		s.nowIn = now
		h.take(s.inc.SetNow(now))
	}
}

func sameBroker(a, b binding.Broker) bool {
	return a.Name == b.Name && a.Leader == b.Leader && a.StartedAt.Equal(b.StartedAt) &&
		a.StartedAt.Location() == b.StartedAt.Location() && a.ConfigSource == b.ConfigSource && a.ProberListed == b.ProberListed
}

// toDecide returns the Bindings the writer must look at in this pass, in
// the order of a full result: those re-evaluated since it last looked,
// and those whose write the engine wants (held back, or failed), since
// the writer's timing moves with the clock.
func (h *Host) toDecide() []types.UID {
	s := &h.st
	out := make([]types.UID, 0, len(s.dirty)+len(s.wantWrite))
	for uid := range s.dirty {
		out = append(out, uid)
	}
	for uid := range s.wantWrite {
		if _, ok := s.dirty[uid]; !ok {
			out = append(out, uid)
		}
	}
	clear(s.dirty)
	slices.SortFunc(out, func(a, b types.UID) int {
		x, y := s.outcomes[a], s.outcomes[b]
		return cmp.Or(cmp.Compare(x.Namespace, y.Namespace), cmp.Compare(x.Name, y.Name), cmp.Compare(x.UID, y.UID))
	})
	return out
}

func sortedUIDs(s uidSet) []types.UID {
	out := make([]types.UID, 0, len(s))
	for uid := range s {
		out = append(out, uid)
	}
	slices.Sort(out)
	return out
}

// servedMemory lays the memory out as Evaluate returns it.
func servedMemory(m map[types.UID]binding.Served) binding.ServedMemory {
	out := binding.ServedMemory{Objects: make([]binding.Served, 0, len(m))}
	for _, e := range m {
		out.Objects = append(out.Objects, e)
	}
	slices.SortFunc(out.Objects, binding.CompareServed)
	return out
}
