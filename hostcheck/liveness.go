package hostcheck

import (
	"fmt"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
)

// settle is the liveness phase: the faults and edits stop, the prober
// finishes a pass for every Binding, the deposed replica stops, and the
// leader relists (only when an event was lost: a relist would hide a
// host that needs one otherwise) and works its queue until it is empty
// or the budget is spent. The stored status must then be the engine's answer for the
// final world, and stay so: a second relist, ten minutes later, may not
// write anything.
func (r *run) settle() error {
	for _, p := range r.reps {
		p.fail, p.crashIn = nil, 0
	}
	leader := r.reps[r.lease]
	r.reps[1-r.lease].running = false
	leader.running = true
	r.now = r.now.Add(time.Minute)
	if r.o.System == Binding {
		r.trace = append(r.trace, "---- faults and edits stop; the prober finishes every Binding")
	} else {
		r.trace = append(r.trace, "---- faults and edits stop")
	}
	if c := r.sys.calm(); c != "" {
		r.trace = append(r.trace, "     "+c)
	}
	if err := r.finishProbes(); err != nil {
		return err
	}
	if r.lost {
		r.trace = append(r.trace, fmt.Sprintf("     replica %d relists, as an event was lost", leader.id))
		r.resync(leader)
	}
	if err := r.drain(leader); err != nil || r.bad != nil {
		return err
	}
	objs, err := listAll(r.ctx, r.store, r.sys.kinds())
	if err != nil {
		return err
	}
	exp, err := r.sys.expect(objs, r.probeList(), r.now, leader.startedAt)
	if err != nil {
		return fmt.Errorf("hostcheck: the engine refused the final world: %w", err)
	}
	for _, u := range objs {
		e, ok := exp[keyOf(u)]
		if !ok || !e.ok {
			continue
		}
		if f := r.sys.finalizer(u.GetKind()); f != "" && e.release && slices.Contains(u.GetFinalizers(), f) {
			r.violate(RuleSettles, "", fmt.Sprintf("%s still holds %s after the settling budget", keyOf(u), f), "Finalizer: Remove")
			return nil
		}
		if e.due {
			r.violate(RuleSettles, "", fmt.Sprintf("%s: a pass of the engine over the stored world still writes its status or changes its finalizer after the settling budget", keyOf(u)), formatConditions(e.pass))
			return nil
		}
		if d := diffOurs(r.sys, u.GetKind(), conditionsOf(u), e.owned); d != "" {
			r.violate(RuleSettles, "", fmt.Sprintf("%s: %s after the settling budget (%d reconciles, %v)", keyOf(u), d, settlePasses, settleTime), formatConditions(e.owned))
			return nil
		}
	}
	r.quiet = true
	r.now = r.now.Add(10 * time.Minute)
	r.trace = append(r.trace, fmt.Sprintf("---- the status is settled; ten minutes later replica %d relists", leader.id))
	r.resync(leader)
	return r.drain(leader)
}

// finishProbes gives every Binding a finished probe of its generation,
// with the last variant drawn for it, and queues those it is news for.
func (r *run) finishProbes() error {
	r.inflight = nil
	objs, err := listAll(r.ctx, r.store, r.sys.kinds())
	if err != nil {
		return err
	}
	for _, u := range objs {
		res, ok := r.sys.probe(u, u.GetGeneration(), r.variant[u.GetUID()])
		if !ok {
			continue
		}
		// Only a new finding queues the Binding: one already held would
		// give a host a request it did not need to converge.
		if old, had := r.probes[u.GetUID()]; !had || old.Generation != res.Generation {
			r.reps[r.lease].enqueue([]types.NamespacedName{keyOf(u).NamespacedName}, r.now)
		}
		r.probes[u.GetUID()] = res
	}
	return nil
}

// drain delivers p's events and runs its due requests, moving the clock
// to the next one due, within the settling budget.
func (r *run) drain(p *replica) error {
	deadline := r.now.Add(settleTime)
	for range settlePasses {
		for len(p.inbox) > 0 {
			r.deliver(p)
		}
		if _, ok := p.next(r.now); !ok {
			t, ok := p.earliest()
			if !ok || t.After(deadline) {
				return nil
			}
			r.now = t
		}
		if err := r.reconcileNext(p); err != nil || r.bad != nil {
			return err
		}
	}
	return nil
}

// answerMoved reports whether the engine's answer for the stored object
// now differs from its status: time alone can move it (a clock that
// jumped back before a creation time), and then a write is due.
func (r *run) answerMoved(k objKey, stored *unstructured.Unstructured) bool {
	objs, err := listAll(r.ctx, r.store, r.sys.kinds())
	if err != nil {
		return true
	}
	exp, err := r.sys.expect(objs, r.probeList(), r.now, r.reps[r.lease].startedAt)
	if err != nil {
		return true
	}
	e, ok := exp[k]
	if !ok || !e.ok || e.due {
		return true
	}
	var got []metav1.Condition
	for _, c := range conditionsOf(stored) {
		if r.sys.ours(k.Kind, c.Type) {
			got = append(got, c)
		}
	}
	return !slices.EqualFunc(got, e.owned, sameCondition)
}
