package sim

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/policy"
	"github.com/condengine/condengine/clock"
)

// Options shape a simulation. Zero fields take the defaults listed.
type Options struct {
	// Limits are the broker's limits; zero means policy.DefaultLimits.
	Limits policy.Limits
	// Start is the simulated time at which the first replica starts;
	// zero means 2026-11-30T10:00:00Z.
	Start time.Time
	// LookPhase is how long after a replica starts it first reads the
	// config; later reads follow every Limits.ConfigLook.
	LookPhase time.Duration
	// WriteLatency is how long a status write takes; its end is what the
	// write gap counts from.
	WriteLatency time.Duration
	// Lease is how long after the leader dies a standby takes over;
	// zero means 15 s.
	Lease time.Duration
}

// Sim is one simulated cluster: an API server's store of the three kinds,
// the backends and chat platform the prober reaches, and broker replicas.
// It has no goroutines and never sleeps: time moves only in RunUntil.
type Sim struct {
	opts  Options
	lim   policy.Limits
	clock *clock.Fake
	now   time.Time
	seq   uint64
	queue queue

	bindings    map[key]*akv1.Binding
	backends    map[key]*akv1.AgentBackend
	connections map[key]*akv1.ChatConnection
	uids        int

	backendBehavior map[key]BackendBehavior
	channelBehavior map[string]ChannelBehavior
	failWrites      map[types.UID]time.Time

	replicas []*Replica
	history  map[key][]Status

	// Writes lists every status write attempt, in time order.
	Writes []Write
	// Passes lists every probe pass that ended, in time order.
	Passes []Pass
	// Fights lists every fight a writer reported, in time order.
	Fights []Fight
	// afterWrite hooks run after each successful write.
	afterWrite []func(Write)
}

type key struct{ ns, name string }

// Write is one status write attempt.
type Write struct {
	// At is when the write started, End when it ended.
	At, End time.Time
	// Replica is the replica that wrote.
	Replica string
	// Namespace, Name and UID are the object the status was computed for.
	Namespace string
	Name      string
	UID       types.UID
	// OK reports that the API server took the write.
	OK bool
	// Generation is the object's metadata.generation when the write
	// landed; 0 when it did not.
	Generation int64
	// PutBack reports that the write put back a foreign edit.
	PutBack bool
	// Conditions is the status the writer computed and sent.
	Conditions []metav1.Condition
	// Stored is the status the API server holds after the write: the
	// Binding's own types merged into the list by type, every other
	// controller's conditions where they stood. Nil when the write
	// failed.
	Stored []metav1.Condition
}

// Pass is one probe pass that ran to its end.
type Pass struct {
	// Replica is the leader that ran the pass.
	Replica string
	// Start and End bound the pass.
	Start, End time.Time
	// Cause is why the pass started.
	Cause policy.Cause
	// Targets are the Bindings probed, in plan order, with the generation
	// each probe claims.
	Targets []policy.Target
}

// Fight is a fight a writer reported.
type Fight struct {
	// At is when the fight began: the decision that counted the edit
	// making it a fight.
	At time.Time
	// Ended is the first decision that no longer reports the fight (a
	// full Quiet after the last foreign edit); zero while it lasts.
	Ended time.Time
	// Replica is the writer that reported it.
	Replica string
	// Namespace and Name are the Binding fought over.
	Namespace string
	Name      string
}

// Status is one state of a Binding's status in the store.
type Status struct {
	// At is when the status was stored.
	At time.Time
	// UID is the object that carried it.
	UID types.UID
	// By is the replica that wrote it, "foreign" for someone else's edit
	// of the status, "other" for another controller's apply of its own
	// condition, and "create" for a new object.
	By         string
	Conditions []metav1.Condition
}

// BackendBehavior is how an agent answers the card fetch: after Delay
// (a Delay at or past the probe timeout is a timeout), with Answer.
type BackendBehavior struct {
	// Delay is how long the fetch takes.
	Delay time.Duration
	// Answer is what the fetch observes when it ends in time.
	Answer binding.BackendObservation
}

// ChannelBehavior is how the chat platform answers about a channel.
type ChannelBehavior struct {
	// Delay is how long the platform takes to answer.
	Delay time.Duration
	// Answer is what the platform says when it answers in time.
	Answer binding.ChannelObservation
}

// FastOK is an agent that serves a usable card in 100 ms. Each call
// returns a new value, so a script may change it freely.
func FastOK() BackendBehavior {
	return BackendBehavior{Delay: 100 * time.Millisecond, Answer: binding.BackendObservation{
		HTTPStatus: 200, Card: &binding.AgentCard{Name: "echo", Version: "1.0", URL: "https://agent.example/a2a"}}}
}

// FastJoined is a channel the bot is in, answered in 100 ms.
func FastJoined() ChannelBehavior {
	return ChannelBehavior{Delay: 100 * time.Millisecond, Answer: binding.ChannelObservation{OK: true, IsMember: true}}
}

// New builds an empty simulation.
func New(o Options) *Sim {
	if o.Limits == (policy.Limits{}) {
		o.Limits = policy.DefaultLimits()
	}
	if o.Start.IsZero() {
		o.Start = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	}
	if o.Lease == 0 {
		o.Lease = 15 * time.Second
	}
	return &Sim{
		opts: o, lim: o.Limits, clock: clock.NewFake(o.Start), now: o.Start,
		bindings: map[key]*akv1.Binding{}, backends: map[key]*akv1.AgentBackend{},
		connections: map[key]*akv1.ChatConnection{}, backendBehavior: map[key]BackendBehavior{},
		channelBehavior: map[string]ChannelBehavior{}, failWrites: map[types.UID]time.Time{},
		history: map[key][]Status{},
	}
}

// Now is the simulated time.
func (s *Sim) Now() time.Time { return s.clock.Now() }

// Limits are the limits the replicas run with.
func (s *Sim) Limits() policy.Limits { return s.lim }

func (s *Sim) newUID() types.UID {
	s.uids++
	return types.UID(fmt.Sprintf("uid-%04d", s.uids))
}

func (s *Sim) meta(ns, name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Namespace: ns, Name: name, UID: s.newUID(), Generation: 1,
		CreationTimestamp: metav1.NewTime(s.now.Truncate(time.Second))}
}

// AddBackend creates an AgentBackend answering with b.
func (s *Sim) AddBackend(ns, name string, b BackendBehavior) {
	s.backends[key{ns, name}] = &akv1.AgentBackend{ObjectMeta: s.meta(ns, name),
		Spec: akv1.AgentBackendSpec{URL: "https://" + name + ".agents.example"}}
	s.backendBehavior[key{ns, name}] = b
}

// SetBackend changes how an existing backend answers from now on.
func (s *Sim) SetBackend(ns, name string, b BackendBehavior) { s.backendBehavior[key{ns, name}] = b }

// AddConnection creates a Slack ChatConnection of the default broker.
func (s *Sim) AddConnection(ns, name string) {
	s.connections[key{ns, name}] = &akv1.ChatConnection{ObjectMeta: s.meta(ns, name),
		Spec: akv1.ChatConnectionSpec{Platform: akv1.PlatformSlack,
			TokenSecretRef: &akv1.SecretKeyRef{Name: "bot", Key: "token"}}}
}

// SetChannel sets how the platform answers about a channel.
func (s *Sim) SetChannel(channel string, b ChannelBehavior) { s.channelBehavior[channel] = b }

// Create creates a Binding with no status and returns its UID.
func (s *Sim) Create(ns, name, backend, connection, channel string) types.UID {
	b := &akv1.Binding{ObjectMeta: s.meta(ns, name), Spec: akv1.BindingSpec{
		Agent: akv1.AgentRef{BackendRef: akv1.Ref{Name: backend}},
		Chat:  akv1.ChatRef{ConnectionRef: akv1.Ref{Name: connection}, Channel: channel}}}
	k := key{ns, name}
	s.bindings[k] = b
	s.history[k] = append(s.history[k], Status{At: s.now, UID: b.UID, By: "create"})
	return b.UID
}

// Edit changes a Binding's spec; its generation goes up.
func (s *Sim) Edit(ns, name string, change func(*akv1.BindingSpec)) {
	b := s.bindings[key{ns, name}]
	if b == nil {
		return
	}
	nb := *b
	change(&nb.Spec)
	nb.Generation++
	s.bindings[key{ns, name}] = &nb
}

// Delete deletes a Binding.
func (s *Sim) Delete(ns, name string) { delete(s.bindings, key{ns, name}) }

// ForeignEdit replaces a Binding's status as someone else would.
func (s *Sim) ForeignEdit(ns, name string, conds []metav1.Condition) {
	k := key{ns, name}
	b := s.bindings[k]
	if b == nil {
		return
	}
	nb := *b
	nb.Status.Conditions = conds
	s.bindings[k] = &nb
	s.history[k] = append(s.history[k], Status{At: s.now, UID: nb.UID, By: "foreign", Conditions: conds})
}

// FailWrites makes every status write of uid fail until until.
func (s *Sim) FailWrites(uid types.UID, until time.Time) { s.failWrites[uid] = until }

// AfterWrite runs fn after each successful status write.
func (s *Sim) AfterWrite(fn func(Write)) { s.afterWrite = append(s.afterWrite, fn) }

// ChangeSecret tells every live leader that a Secret its Bindings use
// changed.
func (s *Sim) ChangeSecret() {
	for _, r := range s.replicas {
		if r.alive && r.leader {
			r.prober = r.prober.Trigger(policy.TriggerSecret, r.now())
		}
	}
}

// Binding returns the store's Binding, or nil.
func (s *Sim) Binding(ns, name string) *akv1.Binding { return s.bindings[key{ns, name}] }

// Bindings lists the store's Bindings, sorted by namespace and name.
func (s *Sim) Bindings() []akv1.Binding {
	out := make([]akv1.Binding, 0, len(s.bindings))
	for _, b := range s.bindings {
		out = append(out, *b)
	}
	slices.SortFunc(out, func(a, b akv1.Binding) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	return out
}

// History lists the states a Binding name's status went through, across
// the objects that had that name.
func (s *Sim) History(ns, name string) []Status { return s.history[key{ns, name}] }

// store applies a write to the API server: it succeeds only when the
// object with that name still has the UID the write was computed for, as
// a write with a UID precondition would. The write is a server-side apply
// of the Binding's own condition types (see applyConditions): another
// controller's conditions stay where they stand in the stored list, and
// w.Stored is the list the API server answers with.
func (s *Sim) store(w *Write) {
	if until, ok := s.failWrites[w.UID]; ok && s.now.Before(until) {
		return
	}
	k := key{w.Namespace, w.Name}
	b := s.bindings[k]
	if b == nil || b.UID != w.UID {
		return
	}
	ours := make([]metav1.Condition, 0, len(w.Conditions))
	for _, c := range w.Conditions {
		if binding.Vocabulary.Has(c.Type) {
			ours = append(ours, c)
		}
	}
	nb := *b
	nb.Status.Conditions = applyConditions(b.Status.Conditions, ours, binding.Vocabulary.Has)
	s.bindings[k] = &nb
	w.OK, w.Generation, w.Stored = true, nb.Generation, nb.Status.Conditions
	s.history[k] = append(s.history[k], Status{At: s.now, UID: w.UID, By: w.Replica, Conditions: nb.Status.Conditions})
}

// ApplyOther is another controller applying its own condition c to a
// Binding's status with a server-side apply: an entry of c's type is
// replaced where it stands, a new one goes after the list's entries.
func (s *Sim) ApplyOther(ns, name string, c metav1.Condition) {
	k := key{ns, name}
	b := s.bindings[k]
	if b == nil {
		return
	}
	nb := *b
	nb.Status.Conditions = applyConditions(b.Status.Conditions, []metav1.Condition{c}, func(string) bool { return false })
	s.bindings[k] = &nb
	s.history[k] = append(s.history[k], Status{At: s.now, UID: nb.UID, By: "other", Conditions: nb.Status.Conditions})
}
