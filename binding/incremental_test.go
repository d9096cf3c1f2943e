package binding_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/bindingtest"
)

// hostView is what a host learns from Steps alone: the outcome and the
// memory entry per UID.
type hostView struct {
	results map[types.UID]binding.Outcome
	memory  map[types.UID]binding.Served
}

func newHostView(r binding.Result) hostView {
	h := hostView{results: map[types.UID]binding.Outcome{}, memory: map[types.UID]binding.Served{}}
	h.apply(binding.Step{Full: true, Bindings: r.Bindings, Remembered: r.Memory.Objects})
	return h
}

func (h *hostView) apply(st binding.Step) {
	if st.Full {
		clear(h.results)
		clear(h.memory)
	}
	for _, br := range st.Bindings {
		h.results[br.UID] = br
	}
	for _, uid := range st.Gone {
		delete(h.results, uid)
	}
	for _, m := range st.Remembered {
		h.memory[m.UID] = m
	}
	for _, uid := range st.Forgotten {
		delete(h.memory, uid)
	}
}

// toldWorld is what the machine told the evaluator, kept by UID: the
// snapshot the evaluator must describe.
type toldWorld struct {
	now         time.Time
	broker      binding.Broker
	bindings    map[types.UID]akv1.Binding
	backends    map[types.UID]akv1.AgentBackend
	connections map[types.UID]akv1.ChatConnection
	memory      map[types.UID]binding.Served
	probes      map[types.UID][]binding.ProbeResult
}

func newToldWorld(s binding.Snapshot) *toldWorld {
	w := &toldWorld{now: s.Now, broker: s.Broker, bindings: map[types.UID]akv1.Binding{},
		backends: map[types.UID]akv1.AgentBackend{}, connections: map[types.UID]akv1.ChatConnection{},
		memory: map[types.UID]binding.Served{}, probes: map[types.UID][]binding.ProbeResult{}}
	for _, o := range s.Bindings {
		w.bindings[o.UID] = o
	}
	for _, o := range s.Backends {
		w.backends[o.UID] = o
	}
	for _, o := range s.Connections {
		w.connections[o.UID] = o
	}
	for _, m := range s.Served.Objects {
		w.memory[m.UID] = m
	}
	for _, p := range s.Probes {
		w.probes[p.UID] = append(w.probes[p.UID], p)
	}
	return w
}

func inUIDOrder[V any](m map[types.UID]V, each func(V)) {
	keys := make([]types.UID, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		each(m[k])
	}
}

// snapshot is the world as Incremental.Snapshot lists it: sorted by UID,
// each UID's probe results in the order given.
func (w *toldWorld) snapshot() binding.Snapshot {
	s := binding.Snapshot{Now: w.now, Broker: w.broker}
	inUIDOrder(w.bindings, func(o akv1.Binding) { s.Bindings = append(s.Bindings, o) })
	inUIDOrder(w.backends, func(o akv1.AgentBackend) { s.Backends = append(s.Backends, o) })
	inUIDOrder(w.connections, func(o akv1.ChatConnection) { s.Connections = append(s.Connections, o) })
	inUIDOrder(w.memory, func(m binding.Served) { s.Served.Objects = append(s.Served.Objects, m) })
	inUIDOrder(w.probes, func(ps []binding.ProbeResult) { s.Probes = append(s.Probes, ps...) })
	return s
}

func snapshotJSON(t *rapid.T, s binding.Snapshot) string {
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return string(b)
}

// incrementalMachine drives an Incremental through random changes and
// compares it, after each, with a full evaluation of the same snapshot.
type incrementalMachine struct {
	e    *binding.Incremental
	host hostView
	// w is what the machine told e; e.Snapshot must describe it.
	w    *toldWorld
	next int
	// last is the latest Step; clean reports that the snapshot before it
	// had no ObjectError, and broker that it changed the broker.
	last          binding.Step
	clean, broker bool
}

func (m *incrementalMachine) init(t *rapid.T) {
	s := bindingtest.SnapshotGen().Draw(t, "snapshot")
	e, r, err := binding.NewIncremental(s)
	if err != nil {
		t.Fatalf("NewIncremental: %v", err)
	}
	if got, want := resultJSON(t, r), resultJSON(t, mustEvaluate(s)); got != want {
		t.Fatalf("first result differs from Evaluate:\nwant %s\ngot  %s", want, got)
	}
	m.e, m.host, m.clean, m.w = e, newHostView(r), len(r.Errors) == 0, newToldWorld(s)
}

func (m *incrementalMachine) setBinding(o akv1.Binding) {
	m.w.bindings[o.UID] = o
	m.do(m.e.SetBinding(o))
}

func (m *incrementalMachine) setBackend(o akv1.AgentBackend) {
	m.w.backends[o.UID] = o
	m.do(m.e.SetBackend(o))
}

func (m *incrementalMachine) setConnection(o akv1.ChatConnection) {
	m.w.connections[o.UID] = o
	m.do(m.e.SetConnection(o))
}

func (m *incrementalMachine) do(st binding.Step) {
	m.host.apply(st)
	m.last = st
}

func pick[T any](t *rapid.T, label string, xs []T) (T, bool) {
	if len(xs) == 0 {
		var zero T
		return zero, false
	}
	return rapid.SampledFrom(xs).Draw(t, label), true
}

// pickOrSkip draws one of xs, and skips the action when there is none.
func pickOrSkip[T any](t *rapid.T, label string, xs []T) T {
	x, ok := pick(t, label, xs)
	if !ok {
		t.Skip("no " + label)
	}
	return x
}

// edit makes one of changes to one of xs, counts a new generation for it
// and tells the evaluator through set; it skips the action when xs is
// empty.
func edit[T any, P interface {
	*T
	metav1.Object
}](t *rapid.T, label string, xs []T, set func(T), changes ...func(P)) {
	x := pickOrSkip(t, label, xs)
	changes[rapid.IntRange(0, len(changes)-1).Draw(t, "what")](&x)
	P(&x).SetGeneration(P(&x).GetGeneration() + 1)
	set(x)
}

func (m *incrementalMachine) actions() map[string]func(*rapid.T) {
	return map[string]func(*rapid.T){
		"editBinding": func(t *rapid.T) {
			edit(t, "binding", m.e.Snapshot().Bindings, m.setBinding,
				func(b *akv1.Binding) {
					b.Spec.Chat.Channel = rapid.SampledFrom([]string{"C1", "C2", "C3", "", "bad channel"}).Draw(t, "channel")
				},
				func(b *akv1.Binding) {
					b.Spec.Chat.ConnectionRef.Name = rapid.SampledFrom([]string{"slack", "hub", "none"}).Draw(t, "conn")
				},
				func(b *akv1.Binding) {
					b.Spec.Agent.BackendRef.Name = rapid.SampledFrom([]string{"echo", "hub", "ghost"}).Draw(t, "backend")
				},
				func(b *akv1.Binding) { b.Namespace = rapid.SampledFrom(bindingtest.Namespaces()).Draw(t, "ns") },
				func(*akv1.Binding) {}, // a new generation alone
			)
		},
		"writeStatus": func(t *rapid.T) {
			r := m.e.Result()
			br, ok := pick(t, "result", r.Bindings)
			if !ok || !br.Write {
				t.Skip("nothing to write")
			}
			for _, b := range m.e.Snapshot().Bindings {
				if b.UID == br.UID {
					b.Status.Conditions = slices.Clone(br.Conditions)
					m.setBinding(b)
				}
			}
		},
		"addBinding": func(t *rapid.T) {
			ns := rapid.SampledFrom(bindingtest.Namespaces()).Draw(t, "ns")
			m.next++
			b := bindingtest.NewBinding(ns, "new-"+strconv.Itoa(m.next), bindingtest.UID("n"+strconv.Itoa(m.next)),
				bindingtest.Channel(rapid.SampledFrom([]string{"C1", "C2"}).Draw(t, "channel")),
				bindingtest.Connection("", rapid.SampledFrom([]string{"slack", "hub"}).Draw(t, "conn")),
				bindingtest.Backend("", rapid.SampledFrom([]string{"echo", "hub"}).Draw(t, "backend")))
			if rapid.Bool().Draw(t, "sameName") {
				if o, ok := pick(t, "twin", m.e.Snapshot().Bindings); ok {
					b.Namespace, b.Name = o.Namespace, o.Name
				}
			}
			m.setBinding(b)
		},
		"deleteBinding": func(t *rapid.T) {
			b := pickOrSkip(t, "binding", m.e.Snapshot().Bindings)
			delete(m.w.bindings, b.UID)
			m.do(m.e.DeleteBinding(b.UID))
		},
		"editBackend": func(t *rapid.T) {
			edit(t, "backend", m.e.Snapshot().Backends, m.setBackend,
				func(b *akv1.AgentBackend) {
					b.Spec.URL = rapid.SampledFrom([]string{"https://a.example", "ftp://bad"}).Draw(t, "url")
				},
				func(b *akv1.AgentBackend) {
					b.Spec.AllowedNamespaces = rapid.SliceOfN(rapid.SampledFrom([]string{"team-a", "team-b", "*"}), 0, 2).Draw(t, "allowed")
				},
				func(b *akv1.AgentBackend) {
					b.Name = rapid.SampledFrom([]string{"echo", "hub", "ghost"}).Draw(t, "name")
				},
			)
		},
		"editConnection": func(t *rapid.T) {
			edit(t, "connection", m.e.Snapshot().Connections, m.setConnection,
				func(c *akv1.ChatConnection) {
					c.Spec.Broker = rapid.SampledFrom([]string{"", "broker-b"}).Draw(t, "broker")
				},
				func(c *akv1.ChatConnection) {
					c.Spec.Platform = rapid.SampledFrom([]string{akv1.PlatformSlack, "teams"}).Draw(t, "platform")
				},
				func(c *akv1.ChatConnection) {
					c.Spec.AllowedNamespaces = rapid.SliceOfN(rapid.SampledFrom([]string{"team-a", "shared", "*"}), 0, 2).Draw(t, "allowed")
				},
				func(c *akv1.ChatConnection) {
					c.Name = rapid.SampledFrom([]string{"slack", "hub", "none"}).Draw(t, "name")
				},
			)
		},
		// removeObject is addObject's counterpart: a backend or a
		// connection goes.
		"removeObject": func(t *rapid.T) {
			s := m.e.Snapshot()
			if rapid.Bool().Draw(t, "backend") {
				b := pickOrSkip(t, "backend", s.Backends)
				delete(m.w.backends, b.UID)
				m.do(m.e.DeleteBackend(b.UID))
				return
			}
			c := pickOrSkip(t, "connection", s.Connections)
			delete(m.w.connections, c.UID)
			m.do(m.e.DeleteConnection(c.UID))
		},
		"addObject": func(t *rapid.T) {
			ns := rapid.SampledFrom(bindingtest.Namespaces()).Draw(t, "ns")
			m.next++
			uid := types.UID("x" + strconv.Itoa(m.next))
			if rapid.Bool().Draw(t, "backend") {
				b := bindingtest.NewBackend(ns, rapid.SampledFrom([]string{"echo", "hub", "ghost"}).Draw(t, "name"), "*")
				b.UID = uid
				m.setBackend(b)
				return
			}
			c := bindingtest.NewConnection(ns, rapid.SampledFrom([]string{"slack", "hub", "none"}).Draw(t, "name"), "*")
			c.UID = uid
			m.setConnection(c)
		},
		"keepMemory": func(t *rapid.T) {
			// The host passes the memory on, as it passes Result.Memory
			// to the next full evaluation.
			r := m.e.Result()
			if e, ok := pick(t, "entry", r.Memory.Objects); ok && rapid.Bool().Draw(t, "set") {
				m.w.memory[e.UID] = e
				m.do(m.e.SetServed(e))
				return
			}
			if e, ok := pick(t, "old", m.e.Snapshot().Served.Objects); ok {
				delete(m.w.memory, e.UID)
				m.do(m.e.DeleteServed(e.UID))
			}
		},
		"probe": func(t *rapid.T) {
			b := pickOrSkip(t, "binding", m.e.Snapshot().Bindings)
			var rs []binding.ProbeResult
			for range rapid.IntRange(0, 2).Draw(t, "n") {
				r := bindingtest.Probe(b, rapid.Int64Range(1, b.Generation+1).Draw(t, "gen"),
					bindingtest.BackendObservationGen().Draw(t, "backend"), bindingtest.ChannelObservationGen().Draw(t, "channel"))
				if rapid.IntRange(0, 3).Draw(t, "logName") == 0 {
					// Namespace and name are for the log: a result may
					// name its Binding otherwise and still count.
					r.Name += "-old"
				}
				rs = append(rs, r)
			}
			if len(rs) == 0 {
				delete(m.w.probes, b.UID)
			} else {
				m.w.probes[b.UID] = rs
			}
			m.do(m.e.SetProbes(b.UID, rs))
		},
		"time": func(t *rapid.T) {
			s := m.e.Snapshot()
			due := map[types.UID]bool{}
			for _, o := range m.e.Result().Bindings {
				if o.Due() {
					due[o.UID] = true
				}
			}
			m.w.now = s.Now.Add(time.Duration(rapid.IntRange(1, 600).Draw(t, "seconds")) * time.Second)
			st := m.e.SetNow(m.w.now)
			if !st.Full {
				// Moving the clock re-evaluates exactly the outcomes with a
				// write due, no others.
				seen := map[types.UID]bool{}
				for _, o := range st.Bindings {
					if !due[o.UID] {
						t.Fatalf("SetNow re-evaluated %s/%s, which had no write due", o.Namespace, o.Name)
					}
					seen[o.UID] = true
				}
				for _, uid := range st.Gone {
					seen[uid] = true
				}
				if len(seen) != len(due) {
					t.Fatalf("SetNow re-evaluated %d of the %d outcomes with a write due", len(seen), len(due))
				}
			}
			m.do(st)
		},
		"broker": func(t *rapid.T) {
			b := m.e.Snapshot().Broker
			b.Leader = rapid.Bool().Draw(t, "leader")
			b.ProberListed = rapid.Bool().Draw(t, "listed")
			m.w.broker = b
			m.do(m.e.SetBroker(b))
			m.broker = true
		},
		"": m.check,
	}
}

// check compares the evaluator's result, and what a host learnt from the
// Steps alone, with a full evaluation of the same snapshot.
func (m *incrementalMachine) check(t *rapid.T) {
	if got, w := snapshotJSON(t, m.e.Snapshot()), snapshotJSON(t, m.w.snapshot()); got != w {
		t.Fatalf("the evaluator describes another snapshot than it was told of:\nwant %s\ngot  %s", w, got)
	}
	want := mustEvaluate(m.e.Snapshot())
	// Between two snapshots without an ObjectError, only a change of the
	// broker may take a full evaluation.
	if m.clean && len(want.Errors) == 0 && !m.broker && m.last.Full {
		t.Fatal("a change between clean snapshots took a full evaluation")
	}
	m.clean, m.broker, m.last = len(want.Errors) == 0, false, binding.Step{}
	if got, w := resultJSON(t, m.e.Result()), resultJSON(t, want); got != w {
		t.Fatalf("incremental result differs from Evaluate:\nwant %s\ngot  %s", w, got)
	}
	if len(m.host.results) != len(want.Bindings) || len(m.host.memory) != len(want.Memory.Objects) {
		t.Fatalf("the Steps left the host with %d outcomes and %d memory entries; Evaluate has %d and %d",
			len(m.host.results), len(m.host.memory), len(want.Bindings), len(want.Memory.Objects))
	}
	for _, br := range want.Bindings {
		if got, ok := m.host.results[br.UID]; !ok || resultJSON(t, binding.Result{Bindings: []binding.Outcome{got}}) !=
			resultJSON(t, binding.Result{Bindings: []binding.Outcome{br}}) {
			t.Fatalf("the Steps left %s/%s with another outcome than Evaluate's", br.Namespace, br.Name)
		}
	}
	for _, e := range want.Memory.Objects {
		if got, ok := m.host.memory[e.UID]; !ok || memoryJSON(t, binding.ServedMemory{Objects: []binding.Served{got}}) !=
			memoryJSON(t, binding.ServedMemory{Objects: []binding.Served{e}}) {
			t.Fatalf("the Steps left another memory entry for %s than Evaluate's", e.UID)
		}
	}
}

func TestIncremental_EqualsFullEvaluationAfterAnyChanges(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := &incrementalMachine{}
		m.init(t)
		t.Repeat(m.actions())
	})
}

func TestNewIncremental_RejectsWhatItCannotKey(t *testing.T) {
	s := bindingtest.Healthy(bindingtest.Epoch(), "team-a", 2)
	s.Bindings[1].UID = s.Bindings[0].UID
	if _, _, err := binding.NewIncremental(s); !errors.Is(err, binding.ErrUnkeyable) {
		t.Fatalf("two Bindings of one UID: got %v, want ErrUnkeyable", err)
	}
}

// TestIncremental_BackendFixMovesTheCompetitor: fixing the backend of the
// older of two Bindings on one channel hands it the channel, so the
// younger one, which names another backend, must be re-evaluated too.
func TestIncremental_BackendFixMovesTheCompetitor(t *testing.T) {
	now := bindingtest.Epoch().Add(time.Hour)
	s := bindingtest.Healthy(now, "team-a", 0)
	broken := bindingtest.NewBackend("team-a", "broken")
	broken.UID = "ub-broken"
	broken.Spec.URL = "ftp://nowhere"
	s.Backends = append(s.Backends, broken)
	older := bindingtest.NewBinding("team-a", "older", bindingtest.Channel("C1"), bindingtest.Backend("", "broken"),
		bindingtest.Created(bindingtest.Epoch()))
	younger := bindingtest.NewBinding("team-a", "younger", bindingtest.Channel("C1"),
		bindingtest.Created(bindingtest.Epoch().Add(time.Minute)))
	s.Bindings = append(s.Bindings, older, younger)
	e, _, err := binding.NewIncremental(s)
	if err != nil {
		t.Fatal(err)
	}
	broken.Spec.URL = "https://agent.example"
	broken.Generation++
	st := e.SetBackend(broken)
	if st.Full {
		t.Fatal("a clean snapshot took a full evaluation")
	}
	if len(st.Bindings) != 2 {
		t.Fatalf("re-evaluated %d Bindings, want both competitors", len(st.Bindings))
	}
	if got, want := resultJSON(t, e.Result()), resultJSON(t, mustEvaluate(e.Snapshot())); got != want {
		t.Fatalf("incremental result differs from Evaluate:\nwant %s\ngot  %s", want, got)
	}
}
