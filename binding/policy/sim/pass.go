package sim

import (
	"time"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/policy"
)

// pass is a probe pass in progress: the plan, the next Binding to start
// and how many are being probed.
type pass struct {
	plan     policy.Plan
	start    time.Time
	cause    policy.Cause
	next     int
	inflight int
}

// proberTick starts a pass when the schedule says so.
func (r *Replica) proberTick() {
	s := r.sim
	if !r.leader || !r.looked {
		return
	}
	var d policy.PassDecision
	d, r.prober = s.lim.DecidePass(r.prober, r.now())
	if !d.Start {
		return
	}
	res := r.evaluate()
	targets := make([]policy.Target, 0, len(res.Bindings))
	for _, b := range res.Bindings {
		targets = append(targets, policy.Target{Namespace: b.Namespace, Name: b.Name, UID: b.UID,
			Generation: b.ServedGeneration, Served: b.Served})
	}
	r.prober = r.prober.Started(r.now())
	p := &pass{plan: s.lim.Plan(targets), start: s.now, cause: d.Cause}
	r.pass = p
	r.startProbes(p)
}

// startProbes starts Bindings of the pass while slots are free, and ends
// the pass when none is left.
func (r *Replica) startProbes(p *pass) {
	s := r.sim
	if r.pass != p || !r.alive {
		return // the replica died or lost the lead: the pass is gone
	}
	for p.inflight < p.plan.AtOnce && p.next < len(p.plan.Targets) {
		t := p.plan.Targets[p.next]
		p.next++
		p.inflight++
		be, ch := r.behaviors(t)
		backend, channel := be.Answer, ch.Answer
		dBackend, dChannel := be.Delay, ch.Delay
		if dBackend >= p.plan.ProbeTimeout {
			dBackend, backend = p.plan.ProbeTimeout, binding.BackendObservation{Timeout: true}
		}
		if dChannel >= p.plan.ProbeTimeout {
			dChannel, channel = p.plan.ProbeTimeout, binding.ChannelObservation{Timeout: true}
		}
		// Both probes of a Binding land together when the slower ends, so
		// a result never mixes two passes' generations.
		s.After(max(dBackend, dChannel), func() {
			if r.pass != p || !r.alive {
				return
			}
			// A UID that disappeared mid-pass keeps its slot until its
			// probes end; its result is dropped at the next look.
			r.probes[t.UID] = binding.ProbeResult{UID: t.UID, Namespace: t.Namespace, Name: t.Name,
				Generation: t.Generation, Backend: &backend, Channel: &channel}
			p.inflight--
			r.startProbes(p)
		})
	}
	if p.inflight == 0 && p.next >= len(p.plan.Targets) {
		r.pass = nil
		r.prober = r.prober.Finished()
		s.Passes = append(s.Passes, Pass{Replica: r.Name, Start: p.start, End: s.now,
			Cause: p.cause, Targets: p.plan.Targets})
	}
}

// behaviors finds how the Binding's backend and channel answer, from the
// replica's view of the Binding; an unknown backend or channel answers
// fast and well.
func (r *Replica) behaviors(t policy.Target) (BackendBehavior, ChannelBehavior) {
	s := r.sim
	be, ch := FastOK(), FastJoined()
	for i := range r.bindings {
		b := &r.bindings[i]
		if b.UID != t.UID {
			continue
		}
		ns := b.Spec.Agent.BackendRef.Namespace
		if ns == "" {
			ns = b.Namespace
		}
		if x, ok := s.backendBehavior[key{ns, b.Spec.Agent.BackendRef.Name}]; ok {
			be = x
		}
		if x, ok := s.channelBehavior[b.Spec.Chat.Channel]; ok {
			ch = x
		}
	}
	return be, ch
}
