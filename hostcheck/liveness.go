package hostcheck

import (
	"fmt"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// settle is the liveness phase: the faults and edits stop, the system's
// observer takes its last step (World.Finish: the prober finishes a pass
// for every Binding, the charge collector runs once more), the deposed
// replica stops, and the leader relists (only when an event was lost: a
// relist would hide a host that needs one otherwise). Reads that fail
// when the schedule ends keep failing while the leader works what is due
// at once, then work again with no event to say so: coming back after a
// failed read is the host's own to do. The leader then works its queue,
// the clock moving to each request as it comes due, until the stored
// world is settled or the budget's virtual time is spent: how many
// reconciles a host spends on the way (a poll every two seconds, a pass
// it idles, a put-back it holds for minutes) is its own affair. The
// stored status must then be the engine's answer for the final world,
// and stay so: ten minutes later the leader restarts with the store as
// its cache, and the new incarnation may not write anything. A restart
// rather than a relist: a correct host rebuilds what it needs from the
// store, and one that kept it only in memory writes from what it lost.
func (r *run) settle() error {
	for _, p := range r.reps {
		p.fail, p.crashIn = nil, 0
	}
	leader := r.reps[r.lease]
	r.reps[1-r.lease].running = false
	leader.running = true
	r.now = r.now.Add(time.Minute)
	line := "---- faults and edits stop"
	if r.world.Finish != nil {
		what, names, err := r.world.Finish(r.ctx, r.store, r.now)
		if err != nil {
			return err
		}
		if what != "" {
			line += "; " + what
		}
		leader.enqueue(names, r.now)
	}
	r.trace = append(r.trace, line)
	b, err := r.settleBudget()
	if err != nil {
		return err
	}
	r.budget = b
	r.trace = append(r.trace, fmt.Sprintf("     the engine settles the stored world in %d evaluation(s): the host gets %v", b.rounds, b.time))
	if r.lost {
		r.trace = append(r.trace, fmt.Sprintf("     replica %d relists, as an event was lost", leader.id))
		r.resync(leader)
	}
	if r.failing() {
		r.trace = append(r.trace, fmt.Sprintf("     reads still fail while replica %d works what is due now", leader.id))
		if err := r.workDue(leader); err != nil || r.bad != nil {
			return err
		}
	}
	if r.world.Recover != nil {
		if c := r.world.Recover(); c != "" {
			r.trace = append(r.trace, "     "+c+"; no event says so")
		}
	}
	from, passes := r.now, 0
	stopped, err := r.drain(leader, true, &passes)
	if err != nil || r.bad != nil {
		return err
	}
	u, e, err := r.unsettled()
	if err != nil {
		return err
	}
	if u != nil {
		spent := fmt.Sprintf("after the settling budget (%v; the host ran %d reconciles in %v)", r.budget.time, passes, r.now.Sub(from))
		if stopped {
			spent = fmt.Sprintf("after %d reconciles in %v of the budget's %v, all at instants so close that virtual time hardly passed", passes, r.now.Sub(from), r.budget.time)
		}
		k := keyOf(u)
		switch {
		case e.Release && slices.Contains(u.GetFinalizers(), r.sys.finalizer(k.Kind)):
			r.violate(RuleSettles, "", fmt.Sprintf("%s still holds %s %s", k, r.sys.finalizer(k.Kind), spent), "Finalizer: Remove")
		case e.Due:
			r.violate(RuleSettles, "", fmt.Sprintf("%s: a pass of the engine over the stored world still writes its status or changes its finalizer %s", k, spent), formatConditions(e.Pass))
		default:
			r.violate(RuleSettles, "", fmt.Sprintf("%s: %s %s", k, diffOurs(r.sys, k.Kind, conditionsOf(u), e.Settled), spent), formatConditions(e.Settled))
		}
		return nil
	}
	r.quiet = true
	r.now = r.now.Add(10 * time.Minute)
	r.trace = append(r.trace, fmt.Sprintf("---- the status is settled; ten minutes later replica %d restarts and lists the store", leader.id))
	if err := r.start(leader, len(r.log)); err != nil {
		return err
	}
	leader.running = true
	r.queueAll(leader)
	passes = 0
	_, err = r.drain(leader, false, &passes)
	return err
}

// unsettled returns the first judged object of the stored world whose
// status or finalizer is not the engine's answer for it, with that
// answer; nil when the stored world is settled.
func (r *run) unsettled() (*unstructured.Unstructured, Answer, error) {
	objs, err := listAll(r.ctx, r.store, r.sys.gvks)
	if err != nil {
		return nil, Answer{}, err
	}
	exp, err := r.expect(objs)
	if err != nil {
		return nil, Answer{}, fmt.Errorf("hostcheck: the engine refused the final world: %w", err)
	}
	for _, u := range objs {
		e, ok := exp.Objects[keyOf(u)]
		if !ok || !e.Judged {
			continue
		}
		if f := r.sys.finalizer(u.GetKind()); f != "" && e.Release && slices.Contains(u.GetFinalizers(), f) {
			return u, e, nil
		}
		if e.Due || diffOurs(r.sys, u.GetKind(), conditionsOf(u), e.Settled) != "" {
			return u, e, nil
		}
	}
	return nil, Answer{}, nil
}

// failing reports whether the host's reads of some kind fail now.
func (r *run) failing() bool {
	if r.world.ReadError == nil {
		return false
	}
	for _, k := range r.sys.Kinds {
		if r.world.ReadError(k.Kind) != nil {
			return true
		}
	}
	return false
}

// workDue delivers p's events and runs the requests due now, without
// moving the clock, within the settling budget's reconciles.
func (r *run) workDue(p *replica) error {
	for range r.budget.passes {
		for len(p.inbox) > 0 {
			r.deliver(p)
		}
		if _, ok := p.next(r.now); !ok {
			return nil
		}
		if err := r.reconcileNext(p); err != nil || r.bad != nil {
			return err
		}
	}
	return nil
}

// drain delivers p's events and runs its due requests, moving the clock
// to the next one due, until the budget's virtual time is spent. When
// settling, it stops once nothing is due now and the stored world is
// settled (looked at again only after the store changed), and bounds the reconciles only
// against a host that never lets the clock move (settleCap); stopped
// reports that bound was hit. After the status settled, it runs at most
// budget.passes reconciles: a host that polls finds nothing to write on
// any of them.
func (r *run) drain(p *replica, settling bool, passes *int) (stopped bool, err error) {
	deadline := r.now.Add(r.budget.time)
	limit := r.budget.passes
	if settling {
		limit = r.budget.settleCap
	}
	looked := -1
	for ; *passes < limit; *passes++ {
		for len(p.inbox) > 0 {
			r.deliver(p)
		}
		if _, ok := p.next(r.now); !ok {
			if settling && looked != len(r.log) {
				looked = len(r.log)
				u, _, err := r.unsettled()
				if err != nil || u == nil {
					return false, err
				}
			}
			t, ok := p.earliest()
			if !ok || t.After(deadline) {
				return false, nil
			}
			r.now = t
		}
		if err := r.reconcileNext(p); err != nil || r.bad != nil {
			return false, err
		}
	}
	return settling, nil
}

// answerMoved reports whether the engine's answer for the stored object
// now differs from its status: time alone can move it (a clock that
// jumped back before a creation time), and then a write is due.
func (r *run) answerMoved(k ObjectKey, stored *unstructured.Unstructured) bool {
	objs, err := listAll(r.ctx, r.store, r.sys.gvks)
	if err != nil {
		return true
	}
	exp, err := r.expect(objs)
	if err != nil {
		return true
	}
	e, ok := exp.Objects[k]
	if !ok || !e.Judged || e.Due {
		return true
	}
	var got []metav1.Condition
	for _, c := range conditionsOf(stored) {
		if r.sys.ours(k.Kind, c.Type) {
			got = append(got, c)
		}
	}
	return !slices.EqualFunc(got, e.Settled, sameCondition)
}

// budget is what a host gets to settle once faults and edits stop.
type budget struct {
	// rounds is how many evaluations the engine itself needs from the
	// stored world to its fixpoint.
	rounds int
	// time is the virtual time the host gets to settle, and the quiet
	// phase lasts at most.
	time time.Duration
	// passes bounds the reconciles of the quiet phase and of the work
	// done while reads still fail (the clock does not move then).
	passes int
	// settleCap bounds the reconciles while settling: a request every
	// second for every object (and one more) over the whole time, far
	// above what a host that polls needs. Only a host that keeps
	// asking for itself at once, or a few milliseconds later, meets it.
	settleCap int
}

// engineRoundsCap bounds the evaluations the harness lets the engine take
// to settle a world of n objects: twice the objects and two, far above
// what the drawn worlds need (a few evaluations). A world the engine does
// not settle within it has no fixpoint to judge a host against.
func engineRoundsCap(n int) int { return 2*n + 2 }

// settleBudget bounds the settling by the engine: it runs the engine's
// own settle on the stored world (the final one: edits have stopped) and
// gives the host, for each evaluation the engine needs and one more, the
// longest it may hold a write (roundWait), and as much again as margin:
// a budget of virtual time. The reconciles of the quiet phase are
// bounded at a reconcile of every object's request twice (one retry
// after a conflict with its own lagging view) per round, and a few more.
func (r *run) settleBudget() (budget, error) {
	objs, err := listAll(r.ctx, r.store, r.sys.gvks)
	if err != nil {
		return budget{}, err
	}
	exp, err := r.expect(objs)
	if err != nil {
		return budget{}, fmt.Errorf("hostcheck: the engine refused the final world: %w", err)
	}
	rounds := exp.Rounds
	k := 2 * (rounds + 1)
	b := budget{
		rounds: rounds,
		passes: k * (2*len(objs) + minPassesPerRound),
		time:   time.Duration(k) * r.roundWait(),
	}
	b.settleCap = b.passes + int(b.time/time.Second)*(len(objs)+1)
	return b, nil
}

// minPassesPerRound gives a world of few objects room for requeues
// (a probe result, a held write's retry).
const minPassesPerRound = 10

// roundWait is the longest a correct host may hold one round of writes.
// A host under the writer policy waits at most the backoff cap (a failing
// write, a put-back in a fight) after one gap, and its prober lists
// StartupList after a restart. A host with no writer policy waits on
// controller-runtime's per-request backoff, which passes a minute after
// fourteen failures in a row.
func (r *run) roundWait() time.Duration {
	if r.sys.WriterPolicy {
		l := r.o.Limits
		return l.WriteGap + l.BackoffCap + l.StartupList
	}
	return time.Minute
}
