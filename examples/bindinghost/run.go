package bindinghost

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/policy"
	"github.com/condengine/condengine/examples/ctrlplan"
	"github.com/condengine/condengine/examples/internal/typedlist"
	"github.com/condengine/condengine/writeplan"
)

// Report says what one RunOnce did, for logs, metrics and tests.
type Report struct {
	// Evaluated counts the Bindings this broker answers for.
	Evaluated int
	// Reevaluated counts the Binding outcomes the pass computed: every
	// one on a pass that lists and evaluates everything, only those a
	// change can move otherwise, none when nothing changed.
	Reevaluated int
	// Written lists the Bindings whose status was written.
	Written []types.NamespacedName
	// Failed lists the Bindings whose write failed, with the error.
	Failed map[types.NamespacedName]error
	// PutBack lists the Bindings whose status someone else had edited and
	// that this pass counted as a new foreign edit.
	PutBack []types.NamespacedName
	// FightsBegun lists the Bindings whose status became a fight.
	FightsBegun []types.NamespacedName
	// NextWrite is the earliest instant a waiting write is due; zero when
	// nothing waits.
	NextWrite time.Time
	// ObjectErrors are objects the engine had to leave out.
	ObjectErrors []binding.ObjectError
}

// RunOnce runs one pass at now: it brings the evaluator up to date,
// re-evaluating only what changed, and writes the status of each Binding
// the writer policy says to write now.
//
// The first pass, and the first after a read error or after leadership
// is regained, lists the three kinds and evaluates every Binding, as does
// every pass while an object cannot take part in the evaluation
// (Report.ObjectErrors is not empty). After
// that, a host that watches (Watch, SetupWithManager) reads only the
// objects its informers reported changed; one that does not lists the
// three kinds and tells the evaluator of the objects whose UID or
// resourceVersion differ from what it holds. An error from reading stops
// the pass; failed writes are in the report and retried on the writer's
// backoff.
func (h *Host) RunOnce(ctx context.Context, now time.Time) (Report, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	// While the snapshot has objects the engine leaves out, the evaluator
	// answers every change with a full evaluation: one per pass is less.
	if relist := h.takeRelist(); relist || h.st.inc == nil || len(h.st.errors) > 0 {
		return h.build(ctx, now)
	}
	var rep Report
	var apply func()
	if h.watching {
		changed, err := h.readEvents(ctx)
		if err != nil {
			h.st.inc = nil
			return rep, err
		}
		apply = func() { h.applyEvents(changed) }
	} else {
		l, err := h.list(ctx)
		if err != nil {
			h.st.inc = nil
			return rep, err
		}
		if !l.keyed() {
			return h.buildFrom(ctx, now, l)
		}
		apply = func() { h.applyListing(l) }
	}
	// The order does not change the result; the clock goes first so that
	// a Binding a change re-evaluates is not evaluated again for the time.
	h.st.reevaluated = 0
	h.tellBrokerAndTime(h.brokerAt(now), now)
	h.passMemoryOn()
	apply()
	h.showOwnWrites()
	h.tellProbes()
	h.decideAll(ctx, now, h.toDecide(), &rep)
	return rep, nil
}

// listing is one read of the three kinds.
type listing struct {
	bindings    []akv1.Binding
	backends    []akv1.AgentBackend
	connections []akv1.ChatConnection
}

func (h *Host) list(ctx context.Context) (listing, error) {
	var l listing
	var err error
	if l.bindings, err = typedlist.List[akv1.Binding](ctx, h.reader, BindingGVK); err != nil {
		return l, err
	}
	if l.backends, err = typedlist.List[akv1.AgentBackend](ctx, h.reader, AgentBackendGVK); err != nil {
		return l, err
	}
	if l.connections, err = typedlist.List[akv1.ChatConnection](ctx, h.reader, ChatConnectionGVK); err != nil {
		return l, err
	}
	return l, nil
}

func (l *listing) keyed() bool {
	return hasUIDs[akv1.Binding](l.bindings) && hasUIDs[akv1.AgentBackend](l.backends) &&
		hasUIDs[akv1.ChatConnection](l.connections)
}

// applyListing tells the evaluator of every difference between a listing
// and what it holds.
func (h *Host) applyListing(l listing) {
	syncList(&h.st.bindings, l.bindings, h.setBinding, h.deleteBinding)
	syncList(&h.st.backends, l.backends, h.setBackend, h.deleteBackend)
	syncList(&h.st.connections, l.connections, h.setConnection, h.deleteConnection)
}

func (h *Host) brokerAt(now time.Time) binding.Broker {
	return binding.Broker{
		Name:         h.broker,
		Leader:       h.leader,
		StartedAt:    h.startedAt,
		ConfigSource: binding.ConfigSourceCRDs,
		ProberListed: h.proberListed || !now.Before(h.startedAt.Add(h.limits.StartupList)),
	}
}

// build lists the three kinds and evaluates every Binding, building the
// evaluator the next passes tell of changes.
func (h *Host) build(ctx context.Context, now time.Time) (Report, error) {
	if h.watching {
		// The listing below reads the cache the informers fill: it holds
		// every change reported so far.
		h.takeEvents()
	}
	l, err := h.list(ctx)
	if err != nil {
		return Report{}, err
	}
	return h.buildFrom(ctx, now, l)
}

func (h *Host) buildFrom(ctx context.Context, now time.Time, l listing) (Report, error) {
	var rep Report
	if h.startedAt.IsZero() {
		h.startedAt = now
	}
	st := newState()
	for i := range l.bindings {
		showOwnWrite(h.pending, &l.bindings[i])
		st.bindings.put(&l.bindings[i])
	}
	for i := range l.backends {
		st.backends.put(&l.backends[i])
	}
	for i := range l.connections {
		st.connections.put(&l.connections[i])
	}
	h.forget(st.bindings.byUID)

	probes := make([]binding.ProbeResult, 0, len(h.probes))
	for _, p := range h.probes {
		probes = append(probes, p)
	}
	served := h.st.memOut
	s := binding.Snapshot{
		Now:         now,
		Broker:      h.brokerAt(now),
		Bindings:    l.bindings,
		Backends:    l.backends,
		Connections: l.connections,
		Served:      servedMemory(served),
		Probes:      probes,
	}
	inc, res, err := binding.NewIncremental(s)
	if err != nil {
		// Objects without a UID cannot be kept by UID: this pass is a
		// full evaluation, and so is the next.
		if res, err = binding.Evaluate(s); err != nil {
			return rep, err
		}
		inc = nil
	}
	st.inc, st.brokerIn, st.nowIn = inc, s.Broker, now
	h.st = st
	h.adopt(res, served)
	h.decideAll(ctx, now, h.toDecide(), &rep)
	return rep, nil
}

// decideAll runs the writer policy on the given Bindings and writes what
// it says to write now.
func (h *Host) decideAll(ctx context.Context, now time.Time, uids []types.UID, rep *Report) {
	rep.Evaluated = len(h.st.outcomes)
	rep.Reevaluated = h.st.reevaluated
	rep.ObjectErrors = h.st.errors
	for _, uid := range uids {
		// A copy: the writer folds its verdict into the outcome.
		r := h.st.outcomes[uid]
		obj := h.st.bindings.byUID[uid]
		if obj == nil {
			continue
		}
		for _, c := range r.Causes {
			h.log.V(1).Info("condition cause", "binding", r.Namespace+"/"+r.Name, "type", c.Type, "reason", c.Reason, "cause", c.Detail)
		}
		h.decideAndWrite(ctx, now, obj, &r, rep)
	}
}

// forget drops everything kept for UIDs that no longer exist.
func (h *Host) forget(live map[types.UID]*akv1.Binding) {
	for uid := range h.writers {
		if live[uid] == nil {
			delete(h.writers, uid)
		}
	}
	for uid := range h.probes {
		if live[uid] == nil {
			delete(h.probes, uid)
		}
	}
	for uid := range h.pending {
		if live[uid] == nil {
			delete(h.pending, uid)
		}
	}
}

func (h *Host) decideAndWrite(ctx context.Context, now time.Time, obj *akv1.Binding, r *binding.Outcome, rep *Report) {
	key := types.NamespacedName{Namespace: r.Namespace, Name: r.Name}
	mem, seen := h.writers[r.UID]
	// One call gives the answer: the engine's verdict (stale, unchanged,
	// the ConfigMap route, a standby) and the writer's timing, folded into
	// the Verdict; r stays as the engine decided. The writer compares the
	// Binding's own types only.
	d, mem, err := h.limits.DecideOutcome(r, obj.Status.Conditions, mem, now)
	if err != nil {
		h.log.Error(err, "write not decided", "binding", key.String())
		return
	}
	if d.ForeignEdit {
		rep.PutBack = append(rep.PutBack, key)
	}
	if d.FightBegins {
		rep.FightsBegun = append(rep.FightsBegun, key)
		h.log.Info("status of a Binding is being fought over", "binding", key.String())
	}
	if d.Retry && (rep.NextWrite.IsZero() || d.RetryAt.Before(rep.NextWrite)) {
		rep.NextWrite = d.RetryAt
	}
	if d.Write {
		if err := h.write(ctx, obj, r); err != nil {
			mem = mem.Failed(now)
			if rep.Failed == nil {
				rep.Failed = map[types.NamespacedName]error{}
			}
			rep.Failed[key] = err
			h.log.Error(err, "status write failed", "binding", key.String())
		} else {
			mem = mem.Wrote(r.Owned, now)
			h.pending[r.UID] = ownWrite{from: obj.ResourceVersion, conditions: withOthers(r.Owned, obj.Status.Conditions)}
			h.st.rewritten[r.UID] = struct{}{}
			rep.Written = append(rep.Written, key)
		}
	}
	if d.Action != policy.None || seen || d.ForeignEdit {
		h.writers[r.UID] = mem
	}
}

// withOthers is what the object carries after a write of ours: our
// conditions and, untouched, every other controller's.
func withOthers(ours, current []metav1.Condition) []metav1.Condition {
	out := append([]metav1.Condition(nil), ours...)
	for _, c := range current {
		if !binding.Vocabulary.Has(c.Type) {
			out = append(out, c)
		}
	}
	return out
}

// writes is what every write plan of the host declares: the field
// manager and the kind (a Binding has no finalizer).
var writes = writeplan.Options{FieldManager: FieldManager, Kind: writeplan.Kind{APIVersion: akv1.APIVersion, Kind: akv1.KindBinding}}

// write carries out the write plan of the outcome the writer decided to
// write (writeplan.For): the removal of a condition type of ours another
// manager co-owns, when there is one, then the server-side apply of
// exactly r.Owned under FieldManager, each request guarded by a
// resourceVersion, so that the API server refuses the write if the object
// changed since it was read, deleted and made again included; the UID
// alone would not, as the status subresource ignores it. A refused write
// is retried on the writer's backoff, from a fresh read. After the write,
// one Event per condition transition goes to the recorder.
func (h *Host) write(ctx context.Context, obj *akv1.Binding, r *binding.Outcome) error {
	o := r.Outcome
	o.Write = true // the writer's verdict, which only writes what the engine would
	plan, err := writeplan.For(obj, &o, r.Status, writes)
	if err != nil {
		return err
	}
	// Carry fills the object it is given from the responses; the host's
	// copy stays the object as read.
	if err := ctrlplan.Carry(ctx, h.client, obj.DeepCopy(), plan); err != nil {
		return err
	}
	ctrlplan.RecordTransitions(h.recorder, obj, writeplan.Transitions(obj.Status.Conditions, r.Conditions))
	return nil
}
