package sim

import (
	"cmp"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/types"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/policy"
)

// Replica is one broker process: it reads the config every ConfigLook,
// evaluates and decides writes every WriterTick, and, while it leads,
// probes every ProberTick. It keeps what a real broker keeps: its view of
// the objects, the memory of good generations, the last probe results and
// the writer's memory per UID.
type Replica struct {
	// Name names the replica in the Writes, Passes and Fights records.
	Name      string
	sim       *Sim
	startedAt time.Time // on the world's clock
	// skew is how far the replica's own clock is from the world's; its
	// writer and prober read that clock (StepClock).
	skew   time.Duration
	alive  bool
	leader bool
	diedAt time.Time

	looked      bool
	bindings    []akv1.Binding
	backends    []akv1.AgentBackend
	connections []akv1.ChatConnection
	fingerprint []ident

	served binding.ServedMemory
	probes map[types.UID]binding.ProbeResult
	writer map[types.UID]policy.Memory
	prober policy.ProberState
	pass   *pass
}

// ident is what a config change is judged by: a new, gone or edited
// object.
type ident struct {
	kind, ns, name string
	uid            types.UID
	generation     int64
}

// StartReplica starts a broker replica now; the first one started leads.
func (s *Sim) StartReplica(name string) *Replica {
	r := &Replica{Name: name, sim: s, startedAt: s.now, alive: true,
		probes: map[types.UID]binding.ProbeResult{}, writer: map[types.UID]policy.Memory{}}
	s.replicas = append(s.replicas, r)
	if !s.hasLeader() {
		r.becomeLeader()
	}
	s.After(s.opts.LookPhase, r.look)
	r.every(s.lim.WriterTick, r.writerTick)
	r.every(s.lim.ProberTick, r.proberTick)
	return r
}

// every runs f at each multiple of tick after the replica started, for
// as long as it is alive.
func (r *Replica) every(tick time.Duration, f func()) {
	s := r.sim
	var run func()
	run = func() {
		if !r.alive {
			return
		}
		s.After(tick, run)
		f()
	}
	s.At(r.startedAt.Truncate(tick).Add(tick), run)
}

func (s *Sim) hasLeader() bool {
	for _, r := range s.replicas {
		if r.alive && r.leader {
			return true
		}
	}
	return false
}

// StepClock moves the replica's own clock by d from now on (a negative d
// steps it back), as a time sync would. The writer and the prober read
// that clock, and the engine evaluates at it; the world's time, and the
// records (Writes, Passes, Fights, History), stay on the world's clock.
func (r *Replica) StepClock(d time.Duration) { r.skew += d }

// now is the replica's own clock.
func (r *Replica) now() time.Time { return r.sim.now.Add(r.skew) }

// Leader reports whether the replica leads.
func (r *Replica) Leader() bool { return r.alive && r.leader }

// Crash stops the replica at once. When it led, the first live standby
// takes over one lease later, with no probe results and an empty writer
// memory.
func (r *Replica) Crash() {
	s := r.sim
	wasLeader := r.leader
	r.alive, r.leader, r.pass, r.diedAt = false, false, nil, s.now
	if !wasLeader {
		return
	}
	s.After(s.opts.Lease, func() {
		if s.hasLeader() {
			return
		}
		for _, o := range s.replicas {
			if o.alive {
				o.becomeLeader()
				return
			}
		}
	})
}

func (r *Replica) becomeLeader() {
	s := r.sim
	r.leader = true
	r.probes = map[types.UID]binding.ProbeResult{}
	r.writer = map[types.UID]policy.Memory{}
	r.pass = nil
	notBefore := r.startedAt.Add(s.lim.StartupList)
	if s.now.After(notBefore) {
		notBefore = s.now
	}
	r.prober = policy.ProberState{NotBefore: notBefore.Add(r.skew)}.Trigger(policy.TriggerLeaderStart, r.now())
}

// look copies the store into the replica's view, as a config read would.
func (r *Replica) look() {
	s := r.sim
	if !r.alive {
		return
	}
	// Fresh slices each read: the engine's memory may point into the
	// specs of the snapshot it was computed from.
	r.bindings = make([]akv1.Binding, 0, len(s.bindings))
	var fp []ident
	for _, b := range s.bindings {
		r.bindings = append(r.bindings, *b)
		fp = append(fp, ident{akv1.KindBinding, b.Namespace, b.Name, b.UID, b.Generation})
	}
	r.backends = make([]akv1.AgentBackend, 0, len(s.backends))
	for _, b := range s.backends {
		r.backends = append(r.backends, *b)
		fp = append(fp, ident{akv1.KindAgentBackend, b.Namespace, b.Name, b.UID, b.Generation})
	}
	r.connections = make([]akv1.ChatConnection, 0, len(s.connections))
	for _, c := range s.connections {
		r.connections = append(r.connections, *c)
		fp = append(fp, ident{akv1.KindChatConnection, c.Namespace, c.Name, c.UID, c.Generation})
	}
	slices.SortFunc(r.bindings, func(a, b akv1.Binding) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	slices.SortFunc(fp, func(a, b ident) int {
		return cmp.Or(cmp.Compare(a.kind, b.kind), cmp.Compare(a.ns, b.ns), cmp.Compare(a.name, b.name))
	})
	if r.looked && !slices.Equal(fp, r.fingerprint) && r.leader {
		r.prober = r.prober.Trigger(policy.TriggerConfig, r.now())
	}
	r.fingerprint, r.looked = fp, true
	// A UID that is gone takes its probe results and writer memory with
	// it: a Binding made again under the name starts with nothing.
	live := make(map[types.UID]bool, len(r.bindings))
	for _, b := range r.bindings {
		live[b.UID] = true
	}
	for uid := range r.probes {
		if !live[uid] {
			delete(r.probes, uid)
		}
	}
	for uid := range r.writer {
		if !live[uid] {
			delete(r.writer, uid)
		}
	}
	s.After(s.lim.ConfigLook, r.look)
}

func (r *Replica) evaluate() binding.Result {
	s := r.sim
	probes := make([]binding.ProbeResult, 0, len(r.probes))
	for _, p := range r.probes {
		probes = append(probes, p)
	}
	slices.SortFunc(probes, func(a, b binding.ProbeResult) int { return cmp.Compare(a.UID, b.UID) })
	// The world's clock starts at a set instant (Options.Start defaults
	// to one), so Now is never zero and Evaluate never refuses it.
	res, _ := binding.Evaluate(binding.Snapshot{
		Now: r.now(),
		Broker: binding.Broker{Leader: r.leader, StartedAt: r.startedAt, ConfigSource: binding.ConfigSourceCRDs,
			ProberListed: !s.now.Before(r.startedAt.Add(s.lim.StartupList))},
		Bindings: r.bindings, Backends: r.backends, Connections: r.connections,
		Served: r.served, Probes: probes,
	})
	r.served = res.Memory
	return res
}

// writerTick evaluates and lets the writer policy decide for each Binding.
func (r *Replica) writerTick() {
	s := r.sim
	if !r.looked {
		return
	}
	res := r.evaluate()
	at := make(map[types.UID]int, len(r.bindings))
	for i := range r.bindings {
		at[r.bindings[i].UID] = i
	}
	for k := range res.Bindings {
		br := &res.Bindings[k]
		i, ok := at[br.UID]
		if !ok {
			continue
		}
		obj := r.bindings[i].Status.Conditions
		prev := r.writer[br.UID]
		inFight := !prev.FightSince.IsZero()
		d, mem, _ := s.lim.DecideOutcome(br, obj, prev, r.now())
		if inFight && !d.Fight {
			s.fightEnded(r.Name, br.Namespace, br.Name)
		}
		if d.FightBegins {
			s.Fights = append(s.Fights, Fight{At: s.now, Replica: r.Name, Namespace: br.Namespace, Name: br.Name})
		}
		if d.Write {
			w := Write{At: s.now, End: s.now.Add(s.opts.WriteLatency), Replica: r.Name, Namespace: br.Namespace,
				Name: br.Name, UID: br.UID, PutBack: d.Log == policy.LogPutBack, Conditions: br.Conditions}
			s.store(&w)
			if w.OK {
				mem = mem.Wrote(br.Owned, w.End.Add(r.skew))
				// The host shows its own write to itself, as the API
				// server answered it.
				r.bindings[i].Status.Conditions = w.Stored
			} else {
				mem = mem.Failed(w.End.Add(r.skew))
			}
			s.Writes = append(s.Writes, w)
			if w.OK {
				for _, fn := range s.afterWrite {
					fn(w)
				}
			}
		}
		r.writer[br.UID] = mem
	}
}

// fightEnded marks the replica's open fight over a Binding as ended now.
func (s *Sim) fightEnded(replica, ns, name string) {
	for i := len(s.Fights) - 1; i >= 0; i-- {
		f := &s.Fights[i]
		if f.Replica == replica && f.Namespace == ns && f.Name == name && f.Ended.IsZero() {
			f.Ended = s.now
			return
		}
	}
}
