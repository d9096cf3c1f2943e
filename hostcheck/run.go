package hostcheck

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/condengine/condengine/binding/policy"
)

// t0 is the virtual clock's start, unless the world says otherwise.
var t0 = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

// run is one execution of one schedule.
type run struct {
	ctx     context.Context
	o       config
	sys     *harnessSystem
	world   *World
	newHost NewHost
	sched   schedule
	rng     *rand.Rand
	store   client.WithWatch
	now     time.Time
	seq     int64
	log     []storeEvent
	reps    [2]*replica
	lease   int
	created int
	// started is how many objects the store starts with.
	started int

	step  int      // index of the event being run; -1 in the liveness phase
	trace []string // what happened, line by line, for the report
	bad   *Violation
	// quiet: the status has settled; any write breaks RuleQuiet.
	quiet bool
	// lost: an event was lost, so settling starts with a relist.
	lost bool
	// budget is what the host gets to settle, set when the schedule ends.
	budget budget
	// passFrom is the length of the log when the running reconcile began.
	passFrom int
	// judging holds what WriteAnswer judges each reconcile's writes by.
	judging judgeState
	// cut is each replica's partition, if one is under way.
	cut [2]partitionState
}

// stop unwinds a reconcile: a crash the schedule asked for, or a
// violation found inside a write.
type stop struct{ crash bool }

func execute(o config, newHost NewHost, sched schedule) (*Violation, error) {
	v, _, err := executeTraced(o, newHost, sched)
	return v, err
}

// executeTraced runs a schedule and returns the violation, if any, and
// the trace of what happened.
func executeTraced(o config, newHost NewHost, sched schedule) (*Violation, []string, error) {
	r, err := newRun(o, newHost, sched)
	if err != nil {
		return nil, nil, err
	}
	err = r.all()
	return r.bad, r.trace, err
}

// startCount is how many objects the store of a schedule starts with.
func startCount(o config, newHost NewHost, sched schedule) (int, error) {
	r, err := newRun(o, newHost, sched)
	if err != nil {
		return 0, err
	}
	return r.started, nil
}

func newRun(o config, newHost NewHost, sched schedule) (*run, error) {
	sys := o.sys
	w, err := sys.NewWorld(sched.World)
	if err != nil {
		return nil, fmt.Errorf("hostcheck: system %q: the world of seed %d: %w", sys.Name, sched.World, err)
	}
	if w == nil || w.Expect == nil {
		return nil, fmt.Errorf("hostcheck: system %q: NewWorld returned no world or one without Expect", sys.Name)
	}
	kept := w.Objects[:0:0]
	for i, obj := range w.Objects {
		if !slices.Contains(sched.Drop, i) {
			kept = append(kept, obj)
		}
	}
	ctx := context.Background()
	var st client.WithWatch
	if o.Store != nil {
		st, err = o.Store(ctx, kept)
	} else {
		st, err = newStore(sys, kept)
	}
	if err != nil {
		return nil, err
	}
	r := &run{
		ctx: ctx, o: o, sys: sys, world: w, newHost: newHost, sched: sched,
		rng: rand.New(rand.NewPCG(sched.Seed, 7)), store: st, now: t0,
	}
	if !w.Start.IsZero() {
		r.now = w.Start
	}
	if w.Prepare != nil {
		if err := w.Prepare(r.ctx, st); err != nil {
			return nil, err
		}
	}
	objs, err := listAll(r.ctx, st, sys.gvks)
	if err != nil {
		return nil, err
	}
	for _, u := range objs {
		r.record(u.GroupVersionKind(), keyOf(u), u)
	}
	r.trace = append(r.trace, startLine(objs))
	r.started = len(objs)
	for i := range r.reps {
		r.reps[i] = newReplica(i)
		if err := r.start(r.reps[i], len(r.log)); err != nil {
			return nil, err
		}
	}
	r.reps[0].running = true
	r.queueAll(r.reps[0])
	return r, nil
}

// all runs every event of the schedule, then the liveness phase.
func (r *run) all() error {
	for i, e := range r.sched.Events {
		r.step = i
		r.partitionTick()
		if err := r.do(e); err != nil {
			return err
		}
		if r.bad != nil {
			return nil
		}
	}
	r.step = -1
	for _, p := range r.reps {
		r.heal(p)
	}
	return r.settle()
}

// start makes a new incarnation of p whose cache holds the store as it
// was after the first `at` events; the rest wait in its inbox.
func (r *run) start(p *replica, at int) error {
	p.incarnation++
	p.startedAt = r.now
	p.cache, p.cacheVer, p.typed = map[ObjectKey]*unstructured.Unstructured{}, map[ObjectKey]int64{}, map[*unstructured.Unstructured]reflect.Value{}
	for _, ev := range r.log[:at] {
		p.take(ev)
	}
	p.inbox = slices.Clone(r.log[at:])
	clear(p.queue)
	clear(p.errors)
	clear(p.seen)
	clear(p.writer)
	p.views = nil
	if r.sys.WriterPolicy {
		p.views = map[ObjectKey]*view{}
		p.clock = func() time.Time { return r.now }
		p.ours = r.sys.ours
		p.viewKind = func(kind string) bool {
			k := r.sys.byKind[kind]
			return k != nil && k.Status
		}
	}
	p.fail, p.crashIn = nil, 0
	env := Env{
		Replica: p.id, Incarnation: p.incarnation, StartedAt: p.startedAt,
		Now:      func() time.Time { return r.now },
		Leader:   func() bool { return r.lease == p.id },
		Observed: r.observed,
	}
	h, err := r.newHost(r.client(p), env)
	if err != nil {
		return fmt.Errorf("hostcheck: NewHost: %w", err)
	}
	if h == nil {
		return fmt.Errorf("hostcheck: NewHost returned a nil reconciler")
	}
	p.host = h
	return nil
}

// queueAll queues every object of p's cache, as a controller's first
// listing does.
func (r *run) queueAll(p *replica) {
	cached := p.cached()
	for _, u := range cached {
		p.enqueue(r.sys.requests(u, cached), r.now)
	}
}

// observed is what the host has observed so far besides the objects.
func (r *run) observed() any {
	if r.world.Observed == nil {
		return nil
	}
	return r.world.Observed()
}

// expect is the engine's answer for objs, stored now, with the leader's
// start.
func (r *run) expect(objs []*unstructured.Unstructured) (Expected, error) {
	return r.world.Expect(objs, r.observed(), r.now, r.reps[r.lease].startedAt)
}

// record appends the store's change of one object to the log and to
// every replica's inbox.
func (r *run) record(gvk schema.GroupVersionKind, k ObjectKey, after *unstructured.Unstructured) {
	r.seq++
	ev := storeEvent{key: k, gvk: gvk, obj: after, version: r.seq}
	r.log = append(r.log, ev)
	for _, p := range r.reps {
		if p != nil {
			p.inbox = append(p.inbox, ev)
		}
	}
	if r.world.Changed != nil {
		r.world.Changed(r.ctx, r.store, r.now)
	}
}

// do runs one schedule event.
func (r *run) do(e event) error {
	p := r.reps[e.Replica%len(r.reps)]
	if e.Op == opObserveStart || e.Op == opObserveEnd {
		return r.observe(e)
	}
	r.line(e.String())
	switch e.Op {
	case opReconcile:
		return r.reconcileNext(p)
	case opDeliver:
		if !r.partitioned(p) {
			r.deliver(p)
		}
	case opAdvance:
		r.now = r.now.Add(e.D)
	case opClock:
		r.now = r.now.Add(e.D)
		for _, p := range r.reps {
			p.shiftQueue(e.D)
		}
	case opEdit, opDelete, opCreate, opForeign:
		return r.userEdit(e)
	case opFight:
		return r.fightRound(e)
	case opDrop:
		if len(p.inbox) > 0 {
			p.inbox = p.inbox[1:]
			r.lost = true
		}
	case opDup:
		if len(p.inbox) > 0 {
			at := min(len(p.inbox), 1+e.Arg)
			p.inbox = slices.Insert(p.inbox, at, p.inbox[0])
		}
	case opSwap:
		if len(p.inbox) > 1 {
			p.inbox[0], p.inbox[1] = p.inbox[1], p.inbox[0]
		}
	case opResync:
		if partitionStarts(e) {
			r.partition(p, e)
			break
		}
		r.resync(p)
	case opFail:
		p.fail = append(p.fail, failKind(e.Arg))
	case opCrash:
		if e.Arg == 0 {
			return r.restart(p)
		}
		p.crashIn = e.Arg
	case opLease:
		if r.lease != p.id {
			r.lease = p.id
			p.running = true
			r.queueAll(p)
		}
	}
	return nil
}

// deliver hands p's next event to its cache and queues its requests.
func (r *run) deliver(p *replica) {
	if len(p.inbox) == 0 {
		return
	}
	ev := p.inbox[0]
	p.inbox = p.inbox[1:]
	p.take(ev)
	obj := ev.obj
	if obj == nil {
		obj = &unstructured.Unstructured{}
		obj.SetGroupVersionKind(ev.gvk)
		obj.SetNamespace(ev.key.Namespace)
		obj.SetName(ev.key.Name)
	}
	p.enqueue(r.sys.requests(obj, p.cached()), r.now)
}

// resync relists: the cache holds the store as it is, and every object
// is queued.
func (r *run) resync(p *replica) {
	for _, ev := range r.log {
		p.take(ev)
	}
	p.inbox = nil
	r.queueAll(p)
}

// restart crashes p and starts it again with a cache that lags the store
// by a few events, running only if it holds the lease.
func (r *run) restart(p *replica) error {
	lag := r.rng.IntN(4)
	if r.o.Faults&LateEvents == 0 {
		lag = 0
	}
	at := max(0, len(r.log)-lag)
	r.cut[p.id] = partitionState{} // a new process watches anew
	r.trace = append(r.trace, fmt.Sprintf("     replica %d restarts with its cache %d event(s) behind the store", p.id, len(r.log)-at))
	if err := r.start(p, at); err != nil {
		return err
	}
	p.running = r.lease == p.id
	if p.running {
		r.queueAll(p)
	}
	return nil
}

// line appends the numbered line of the running event to the trace.
func (r *run) line(what string) {
	r.trace = append(r.trace, fmt.Sprintf("%3d. [%s] %s", r.step+1, r.now.Format("15:04:05"), what))
}

// sysEvent is e as the system reads it.
func (r *run) sysEvent(e event) Event {
	op := map[op]Op{opEdit: Edit, opDelete: Delete, opCreate: Create, opForeign: Foreign, opFight: Fight,
		opObserveStart: ObserveStart, opObserveEnd: ObserveEnd}[e.Op]
	return Event{Op: op, Target: e.Target, Variant: e.Arg, Late: e.late(r.o.Faults), Created: r.created, Now: r.now}
}

func (r *run) userEdit(e event) error {
	if e.Op == opCreate {
		r.created++
	}
	if r.world.Change == nil {
		return nil
	}
	before, err := listAll(r.ctx, r.store, r.sys.gvks)
	if err != nil {
		return err
	}
	at := len(r.trace) - 1 // the event's numbered line
	what, err := r.world.Change(r.ctx, r.store, r.sysEvent(e))
	if what != "" {
		r.trace = append(r.trace, "     "+what)
	}
	if err != nil {
		r.trace = append(r.trace, "     (the edit was refused: "+err.Error()+")")
		return nil
	}
	after, err := listAll(r.ctx, r.store, r.sys.gvks)
	if err != nil {
		return err
	}
	r.recordDiff(before, after)
	r.nameEdit(at, describeChange(before, after))
	return nil
}

// recordDiff records every object that differs between two listings.
func (r *run) recordDiff(before, after []*unstructured.Unstructured) {
	old := map[ObjectKey]*unstructured.Unstructured{}
	for _, u := range before {
		old[keyOf(u)] = u
	}
	for _, u := range after {
		k := keyOf(u)
		if o := old[k]; o == nil || o.GetResourceVersion() != u.GetResourceVersion() {
			r.record(u.GroupVersionKind(), k, u)
		}
		delete(old, k)
	}
	gone := slices.Collect(maps.Values(old))
	sortObjects(gone)
	for _, u := range gone {
		r.record(u.GroupVersionKind(), keyOf(u), nil)
	}
}

// observe runs a step of the system's observer and queues what its
// results name on every replica.
func (r *run) observe(e event) error {
	if r.world.Observe == nil {
		r.line(e.String() + ": the system has no observer")
		return nil
	}
	what, names, err := r.world.Observe(r.ctx, r.store, r.sysEvent(e))
	if what == "" {
		what = e.String()
	}
	r.line(what)
	if err != nil {
		return err
	}
	for _, p := range r.reps {
		p.enqueue(names, r.now)
	}
	return nil
}

// fightRound is one round of a fight over the contested object: time
// passes, a rival writer edits one of our conditions, and the leader's
// informer catches up with the store and hands it the object's request
// at once, so the host meets every edit while the fight lasts.
func (r *run) fightRound(e event) error {
	if !r.sys.WriterPolicy {
		return nil
	}
	r.now = r.now.Add(e.D)
	n := len(r.log)
	if err := r.userEdit(e); err != nil || len(r.log) == n {
		return err
	}
	p := r.reps[r.lease]
	if !p.running {
		return nil
	}
	key := r.log[len(r.log)-1].key
	r.heal(p)
	for len(p.inbox) > 0 {
		r.deliver(p)
	}
	return r.reconcile(p, key.NamespacedName)
}

// reconcileNext runs p's next due request, if p runs and has one.
func (r *run) reconcileNext(p *replica) error {
	if !p.running {
		return nil
	}
	name, ok := p.next(r.now)
	if !ok {
		return nil
	}
	return r.reconcile(p, name)
}

// reconcile takes name off p's queue and runs it.
func (r *run) reconcile(p *replica, name types.NamespacedName) error {
	delete(p.queue, name)
	res, err, crashed := r.call(p, name)
	if r.bad != nil {
		return nil
	}
	if crashed {
		return r.restart(p)
	}
	switch {
	case err != nil:
		p.errors[name]++
		p.enqueue([]types.NamespacedName{name}, r.now.Add(errorBackoff(p.errors[name])))
	case res.RequeueAfter > 0:
		delete(p.errors, name)
		p.enqueue([]types.NamespacedName{name}, r.now.Add(res.RequeueAfter))
	//lint:ignore SA1019 a host may still set it, and controller-runtime still requeues on it
	case res.Requeue:
		p.enqueue([]types.NamespacedName{name}, r.now.Add(errorBackoff(1)))
	default:
		delete(p.errors, name)
	}
	return nil
}

// errorBackoff is controller-runtime's default per-item backoff: 5 ms
// doubling, capped at 1000 s.
func errorBackoff(n int) time.Duration {
	d := 5 * time.Millisecond
	for i := 1; i < n && d < 1000*time.Second; i++ {
		d *= 2
	}
	return min(d, 1000*time.Second)
}

// call runs the host's Reconcile, turning a crash or a violation inside
// it into a return and any other panic into a violation.
func (r *run) call(p *replica, name types.NamespacedName) (res reconcile.Result, err error, crashed bool) {
	defer func() {
		if x := recover(); x != nil {
			if s, ok := x.(stop); ok {
				crashed = s.crash
				return
			}
			r.violate(RuleNoPanic, "", fmt.Sprintf("replica %d panicked reconciling %s: %v", p.id, name, x), "")
		}
	}()
	r.trace = append(r.trace, fmt.Sprintf("     replica %d reconciles %s", p.id, name))
	p.planned = map[types.UID]bool{}
	if r.sys.WriterPolicy {
		// The host's writer observes the clock as it decides; a
		// remembered instant after now counts from now from then on,
		// so the harness's account of its writes does the same.
		for uid, m := range p.writer {
			p.writer[uid] = r.o.Limits.Observe(m, policy.Decision{}, nil, r.now)
		}
	}
	r.passFrom = len(r.log)
	r.beginPass(p)
	res, err = p.host.Reconcile(r.ctx, requestOf(name))
	r.endPass(p)
	if err != nil {
		r.trace = append(r.trace, fmt.Sprintf("     replica %d: reconcile error: %v", p.id, err))
	}
	return res, err, false
}
