package bindinghost

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/cache/informertest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
)

// benchWorld is n Bindings, each on its own channel of one connection and
// served by one backend, carrying the status the host computes for them
// at t0: a broker's steady state.
func benchWorld(b *testing.B, n int) []client.Object {
	b.Helper()
	base := objects(b, world)
	var conn akv1.ChatConnection
	var backend akv1.AgentBackend
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(base[0].(*unstructured.Unstructured).Object, &conn); err != nil {
		b.Fatal(err)
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(base[1].(*unstructured.Unstructured).Object, &backend); err != nil {
		b.Fatal(err)
	}
	s := binding.Snapshot{Now: t0, Broker: binding.Broker{Leader: true, StartedAt: t0.Add(-time.Hour),
		ConfigSource: binding.ConfigSourceCRDs, ProberListed: true},
		Backends: []akv1.AgentBackend{backend}, Connections: []akv1.ChatConnection{conn}}
	for i := range n {
		var o akv1.Binding
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(base[2].(*unstructured.Unstructured).Object, &o); err != nil {
			b.Fatal(err)
		}
		id := fmt.Sprintf("%05d", i)
		o.Name, o.UID, o.Spec.Chat.Channel = "b-"+id, types.UID("u-"+id), "C"+id
		s.Bindings = append(s.Bindings, o)
		s.Probes = append(s.Probes, okProbe(o.UID, 1))
	}
	r, err := binding.Evaluate(s)
	if err != nil {
		b.Fatal(err)
	}
	// ApplyInPlace follows Write: every Binding must get its status.
	for _, o := range r.Bindings {
		if !o.Write {
			b.Fatalf("the outcome of %s/%s has no write due: the bench world would not be settled", o.Namespace, o.Name)
		}
	}
	binding.ApplyInPlace(s.Bindings, r)
	out := []client.Object{base[0], base[1]}
	for i := range s.Bindings {
		o := &s.Bindings[i]
		u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
		if err != nil {
			b.Fatal(err)
		}
		obj := &unstructured.Unstructured{Object: u}
		obj.SetGroupVersionKind(BindingGVK)
		out = append(out, obj)
	}
	return out
}

// BenchmarkHost is one pass of the host over 10k Bindings: a full pass
// (list and evaluate everything, as every pass did before the host worked
// per event) beside a pass after one Binding was edited, for a host that
// lists and diffs and for one that is told by an informer. Compare the
// ns/op of one run.
func BenchmarkHost(b *testing.B) {
	const n = 10000
	objs := benchWorld(b, n)
	for _, mode := range []string{"full", "listing", "event"} {
		b.Run(mode+"/"+strconv.Itoa(n), func(b *testing.B) {
			c := newClient(b, &applies{}, objs...)
			h := newHost(b, c)
			var inf *informertest.FakeInformers
			if mode == "event" {
				inf = &informertest.FakeInformers{Scheme: newScheme()}
				if err := h.Watch(context.Background(), inf, c); err != nil {
					b.Fatal(err)
				}
			}
			for i := range n {
				h.RecordProbe(okProbe(types.UID(fmt.Sprintf("u-%05d", i)), 1))
			}
			ctx := context.Background()
			now := t0
			pass := func() Report {
				now = now.Add(time.Second)
				rep, err := h.RunOnce(ctx, now)
				if err != nil {
					b.Fatal(err)
				}
				return rep
			}
			// The first passes build the evaluator and pass the first
			// memory on.
			for range 3 {
				if rep := pass(); len(rep.Written) != 0 {
					b.Fatalf("steady state wrote %d", len(rep.Written))
				}
			}
			notify := func(u *unstructured.Unstructured) {
				if inf != nil {
					i, err := inf.FakeInformerFor(ctx, u)
					if err != nil {
						b.Fatal(err)
					}
					i.Update(u, u)
				}
			}
			var reevaluated, passes int
			k := 0
			for b.Loop() {
				if mode == "full" {
					h.mu.Lock()
					h.st.inc = nil
					h.mu.Unlock()
				} else {
					// One Binding moves to another channel.
					k = (k + 1) % n
					u := &unstructured.Unstructured{}
					u.SetGroupVersionKind(BindingGVK)
					if err := c.Get(ctx, types.NamespacedName{Namespace: "team-a", Name: fmt.Sprintf("b-%05d", k)}, u); err != nil {
						b.Fatal(err)
					}
					_ = unstructured.SetNestedField(u.Object, "X"+strconv.Itoa(passes), "spec", "chat", "channel")
					u.SetGeneration(u.GetGeneration() + 1)
					if err := c.Update(ctx, u); err != nil {
						b.Fatal(err)
					}
					notify(u)
				}
				rep := pass()
				for _, w := range rep.Written {
					u := &unstructured.Unstructured{}
					u.SetGroupVersionKind(BindingGVK)
					if err := c.Get(ctx, w, u); err != nil {
						b.Fatal(err)
					}
					notify(u)
				}
				reevaluated += rep.Reevaluated
				passes++
			}
			b.ReportMetric(float64(reevaluated)/float64(passes), "reevaluated/pass")
		})
	}
}
