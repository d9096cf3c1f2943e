package bindinghost

import (
	"cmp"
	"context"
	"encoding/json"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/cache/informertest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllertest"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
)

// A second Binding on its own channel, and a second backend.
const more = `
apiVersion: agentkourier.dev/v1alpha1
kind: AgentBackend
metadata: {namespace: team-a, name: hub, uid: u-hub, generation: 1, creationTimestamp: "2026-11-30T08:00:00Z"}
spec: {url: "https://hub.team-a.svc"}
---
apiVersion: agentkourier.dev/v1alpha1
kind: Binding
metadata: {namespace: team-a, name: other, uid: u-other, generation: 1, creationTimestamp: "2026-11-30T09:50:00Z"}
spec:
  agent: {backendRef: {name: hub}}
  chat: {connectionRef: {name: slack}, channel: C3}
`

// driver changes the cluster of a test and, for a host that watches,
// reports each change as an informer does.
type driver struct {
	t   *testing.T
	c   client.Client
	h   *Host
	inf *informertest.FakeInformers // nil: the host lists
}

// newDriver returns a host over objs, watching through fake informers
// when watch is set.
func newDriver(t *testing.T, watch bool, objs ...client.Object) *driver {
	t.Helper()
	c := newClient(t, &applies{}, objs...)
	d := &driver{t: t, c: c, h: newHost(t, c)}
	if watch {
		d.inf = &informertest.FakeInformers{Scheme: newScheme()}
		if err := d.h.Watch(context.Background(), d.inf, c); err != nil {
			t.Fatal(err)
		}
		for _, o := range objs {
			d.event(o, false)
		}
	}
	return d
}

func (d *driver) informer(o client.Object) *controllertest.FakeInformer {
	d.t.Helper()
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(o.GetObjectKind().GroupVersionKind())
	i, err := d.inf.FakeInformerFor(context.Background(), u)
	if err != nil {
		d.t.Fatal(err)
	}
	return i
}

// event reports o added or updated (or deleted) to a watching host.
func (d *driver) event(o client.Object, deleted bool) {
	if d.inf == nil {
		return
	}
	if deleted {
		d.informer(o).Delete(o)
		return
	}
	d.informer(o).Update(o, o)
}

// edit changes one object with f, bumping its generation.
func (d *driver) edit(u *unstructured.Unstructured, f func(*unstructured.Unstructured)) {
	d.t.Helper()
	f(u)
	u.SetGeneration(u.GetGeneration() + 1)
	if err := d.c.Update(context.Background(), u); err != nil {
		d.t.Fatal(err)
	}
	d.event(u, false)
}

func (d *driver) create(u *unstructured.Unstructured) {
	d.t.Helper()
	if err := d.c.Create(context.Background(), u); err != nil {
		d.t.Fatal(err)
	}
	d.event(u, false)
}

func (d *driver) remove(u *unstructured.Unstructured) {
	d.t.Helper()
	if err := d.c.Delete(context.Background(), u); err != nil {
		d.t.Fatal(err)
	}
	d.event(u, true)
}

// expected is a full evaluation of what the host's next pass reads: the
// objects as they are now (its own writes shown, as the host shows them),
// the memory and probes it holds, at now.
func (d *driver) expected(now time.Time) binding.Result {
	d.t.Helper()
	h := d.h
	h.mu.Lock()
	defer h.mu.Unlock()
	l, err := h.list(context.Background())
	if err != nil {
		d.t.Fatal(err)
	}
	// A copy: the oracle must not change what the host remembers.
	pending := maps.Clone(h.pending)
	for i := range l.bindings {
		showOwnWrite(pending, &l.bindings[i])
	}
	var probes []binding.ProbeResult
	for _, p := range h.probes {
		probes = append(probes, p)
	}
	r, err := binding.Evaluate(binding.Snapshot{Now: now, Broker: h.brokerAt(now), Bindings: l.bindings, Backends: l.backends,
		Connections: l.connections, Served: servedMemory(h.st.memOut), Probes: probes})
	if err != nil {
		d.t.Fatal(err)
	}
	return r
}

// pass runs the host at now and checks that its outcomes and memory are
// those of a full evaluation of what it read.
func (d *driver) pass(now time.Time) Report {
	d.t.Helper()
	want := d.expected(now)
	rep, err := d.h.RunOnce(context.Background(), now)
	if err != nil {
		d.t.Fatal(err)
	}
	d.h.mu.Lock()
	got := make([]binding.Outcome, 0, len(d.h.st.outcomes))
	for _, r := range d.h.st.outcomes {
		got = append(got, r)
	}
	d.h.mu.Unlock()
	slices.SortFunc(got, func(a, b binding.Outcome) int { return cmp.Compare(a.Namespace+"/"+a.Name, b.Namespace+"/"+b.Name) })
	if g, w := asJSON(d.t, got), asJSON(d.t, want.Bindings); g != w {
		d.t.Fatalf("at %v the host's outcomes differ from a full evaluation:\nwant %s\ngot  %s", now, w, g)
	}
	if g, w := asJSON(d.t, d.h.Served()), asJSON(d.t, want.Memory); g != w {
		d.t.Fatalf("at %v the host's memory differs from a full evaluation:\nwant %s\ngot  %s", now, w, g)
	}
	// A watching host hears of its own writes as an informer reports them.
	for _, k := range rep.Written {
		d.event(getBinding(d.t, d.c, k.Name), false)
	}
	return rep
}

func asJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var modes = []struct {
	name  string
	watch bool
}{{"listing", false}, {"events", true}}

// TestRunOnce_PerEventEqualsAFullEvaluation: after edits, a deletion, a
// new Binding competing for a channel, a backend change, probe results
// and the clock moving, the host's outcomes and memory are, at every
// pass, those of a full binding.Evaluate of the same objects.
func TestRunOnce_PerEventEqualsAFullEvaluation(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			d := newDriver(t, m.watch, objects(t, world+"\n---\n"+more)...)
			d.h.RecordProbe(okProbe("u-chat-1", 1))
			d.pass(t0)
			d.pass(t0.Add(time.Second))

			// The Binding moves to channel C3, where other already is.
			d.edit(getBinding(d.t, d.c, "team-a-chat"), func(u *unstructured.Unstructured) {
				_ = unstructured.SetNestedField(u.Object, "C3", "spec", "chat", "channel")
			})
			d.pass(t0.Add(2 * time.Second))
			d.h.RecordProbe(okProbe("u-chat-1", 2))
			d.h.RecordProbe(okProbe("u-other", 1))
			d.pass(t0.Add(15 * time.Second))

			// other is deleted: team-a-chat is alone on C3.
			d.remove(getBinding(d.t, d.c, "other"))
			d.pass(t0.Add(30 * time.Second))

			// A new Binding, created later, claims C3 too.
			late := objects(t, world)[2].(*unstructured.Unstructured)
			late.SetName("late")
			late.SetUID("u-late")
			late.SetCreationTimestamp(metav1.NewTime(t0.Add(40 * time.Second)))
			_ = unstructured.SetNestedField(late.Object, "C3", "spec", "chat", "channel")
			d.create(late)
			d.pass(t0.Add(41 * time.Second))
			d.h.RecordProbe(okProbe("u-late", 1))
			d.pass(t0.Add(42 * time.Second))

			// The backend of both breaks, then is fixed.
			echo := &unstructured.Unstructured{}
			echo.SetGroupVersionKind(AgentBackendGVK)
			if err := d.c.Get(context.Background(), types.NamespacedName{Namespace: "team-a", Name: "echo"}, echo); err != nil {
				t.Fatal(err)
			}
			d.edit(echo, func(u *unstructured.Unstructured) {
				_ = unstructured.SetNestedField(u.Object, "ftp://nowhere", "spec", "url")
			})
			d.pass(t0.Add(50 * time.Second))
			d.edit(echo, func(u *unstructured.Unstructured) {
				_ = unstructured.SetNestedField(u.Object, "https://echo.team-a.svc", "spec", "url")
			})
			for _, at := range []time.Duration{time.Minute, 2 * time.Minute, 10 * time.Minute} {
				d.pass(t0.Add(at))
			}
			// Each pass above was checked against a full evaluation; this
			// checks the world ends as the steps meant: other is gone, so
			// team-a-chat and late are left.
			if n := len(d.expected(t0.Add(10 * time.Minute)).Bindings); n != 2 {
				t.Fatalf("%d Bindings at the end, want 2", n)
			}
		})
	}
}

// TestRunOnce_UnchangedPassReevaluatesNothing: once the statuses are
// written and read back, a pass in which nothing changed computes no
// outcome, and an edit of one Binding computes that one only.
func TestRunOnce_UnchangedPassReevaluatesNothing(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			d := newDriver(t, m.watch, objects(t, world+"\n---\n"+more)...)
			d.h.RecordProbe(okProbe("u-chat-1", 1))
			d.h.RecordProbe(okProbe("u-other", 1))
			if rep := d.pass(t0); rep.Reevaluated != 2 || len(rep.Written) != 2 {
				t.Fatalf("first pass: re-evaluated %d, written %v", rep.Reevaluated, rep.Written)
			}
			// The written statuses come back: each is evaluated once more.
			d.pass(t0.Add(time.Second))
			for _, at := range []time.Duration{2 * time.Second, time.Minute} {
				rep := d.pass(t0.Add(at))
				if rep.Reevaluated != 0 || rep.Evaluated != 2 || len(rep.Written) != 0 {
					t.Fatalf("unchanged pass at +%v: re-evaluated %d of %d, written %v", at, rep.Reevaluated, rep.Evaluated, rep.Written)
				}
			}
			d.edit(getBinding(d.t, d.c, "other"), func(u *unstructured.Unstructured) {
				_ = unstructured.SetNestedField(u.Object, "C4", "spec", "chat", "channel")
			})
			if rep := d.pass(t0.Add(2 * time.Minute)); rep.Reevaluated != 1 {
				t.Fatalf("one edit re-evaluated %d Bindings, want 1", rep.Reevaluated)
			}
		})
	}
}

// TestRunOnce_RegainedLeadershipAndUnreadableEventsEvaluateAll: the
// evaluator is built again from a full listing when the host becomes the
// leader again, and when an informer reports something it cannot name.
func TestRunOnce_RegainedLeadershipAndUnreadableEventsEvaluateAll(t *testing.T) {
	d := newDriver(t, true, objects(t, world+"\n---\n"+more)...)
	d.pass(t0)
	d.pass(t0.Add(time.Second))
	d.h.SetLeader(false)
	d.h.SetLeader(true)
	if rep := d.pass(t0.Add(2 * time.Second)); rep.Reevaluated != 2 {
		t.Fatalf("after leadership regained: re-evaluated %d, want 2", rep.Reevaluated)
	}
	if rep := d.pass(t0.Add(3 * time.Second)); rep.Reevaluated != 0 {
		t.Fatalf("unchanged pass: re-evaluated %d", rep.Reevaluated)
	}
	d.h.note(akv1.KindBinding, 42)
	if rep := d.pass(t0.Add(4 * time.Second)); rep.Reevaluated != 2 {
		t.Fatalf("after an event without a name: re-evaluated %d, want 2", rep.Reevaluated)
	}
}

// TestRunOnce_ObjectErrorsMakeEachPassOneFullEvaluation: while a UID is
// used twice, each pass evaluates everything once and still equals a full
// evaluation; once the clash is gone, passes work per change again.
func TestRunOnce_ObjectErrorsMakeEachPassOneFullEvaluation(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			objs := objects(t, world+"\n---\n"+more)
			objs[3].SetUID("u-chat-1") // the backend hub takes the Binding's UID
			d := newDriver(t, m.watch, objs...)
			for i, at := range []time.Duration{0, time.Second, 2 * time.Second} {
				rep := d.pass(t0.Add(at))
				if len(rep.ObjectErrors) == 0 || rep.Reevaluated != rep.Evaluated {
					t.Fatalf("pass %d: object errors %v, re-evaluated %d of %d", i, rep.ObjectErrors, rep.Reevaluated, rep.Evaluated)
				}
			}
			hub := &unstructured.Unstructured{}
			hub.SetGroupVersionKind(AgentBackendGVK)
			if err := d.c.Get(context.Background(), types.NamespacedName{Namespace: "team-a", Name: "hub"}, hub); err != nil {
				t.Fatal(err)
			}
			d.remove(hub)
			d.pass(t0.Add(3 * time.Second))
			d.pass(t0.Add(4 * time.Second))
			if rep := d.pass(t0.Add(5 * time.Second)); len(rep.ObjectErrors) != 0 || rep.Reevaluated != 0 {
				t.Fatalf("after the clash: object errors %v, re-evaluated %d", rep.ObjectErrors, rep.Reevaluated)
			}
		})
	}
}

// TestWatch_EventsDuringPassesAreSafe: informers report changes on their
// own goroutines while passes run (go test -race).
func TestWatch_EventsDuringPassesAreSafe(t *testing.T) {
	d := newDriver(t, true, objects(t, world)...)
	u := getBinding(t, d.c, "team-a-chat")
	inf := d.informer(u)
	var wg sync.WaitGroup
	wg.Go(func() {
		for range 200 {
			inf.Update(u, u)
		}
	})
	for i := range 50 {
		if _, err := d.h.RunOnce(context.Background(), t0.Add(time.Duration(i)*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	if rep := d.pass(t0.Add(time.Minute)); rep.Evaluated != 1 {
		t.Fatalf("evaluated %d", rep.Evaluated)
	}
}

// TestHeld_KeepsCopiesNotPointersIntoAListing: what the host holds of an
// object is its own copy, so one object held does not keep the whole
// listing it came in alive.
func TestHeld_KeepsCopiesNotPointersIntoAListing(t *testing.T) {
	k := newHeld[akv1.Binding]()
	listed := []akv1.Binding{
		{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "x", UID: "u-x", ResourceVersion: "1"}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "y", UID: "u-y", ResourceVersion: "1"}},
	}
	syncList(&k, listed, k.put, k.remove)
	for i := range listed {
		p := k.byUID[listed[i].UID]
		if p == nil || p == &listed[i] || p.ResourceVersion != "1" || p.Name != listed[i].Name {
			t.Fatalf("held %v for the listed %s: want a copy of it", p, listed[i].Name)
		}
	}
}
