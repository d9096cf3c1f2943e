package hostcheck

import (
	"context"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/bindingtest"
)

// observe runs a step of the prober: a pass starts over every Binding,
// or the passes end.
func (b *bindingWorld) observe(ctx context.Context, c client.Reader, e Event) (string, []types.NamespacedName, error) {
	if e.Op == ObserveStart {
		b.probeStart(ctx, c, e)
		return fmt.Sprintf("the prober starts a pass over every Binding (Binding #%d: variant %d)", e.Target, e.Variant), nil, nil
	}
	what := "the prober's passes finish"
	if e.Late {
		what = "the prober's oldest pass finishes, late"
	}
	return what, b.probeFinish(ctx, c, e.Late), nil
}

// probeStart starts a prober pass over every Binding; the variant of
// the one the event targets is the event's, the others' healthy.
func (b *bindingWorld) probeStart(ctx context.Context, c client.Reader, e Event) {
	bs, err := listAll(ctx, c, []schema.GroupVersionKind{bindingGVK})
	if err != nil {
		return
	}
	for i, x := range bs {
		v := 0
		if i == e.Target%len(bs) {
			v = e.Variant
		}
		b.inflight = append(b.inflight, probeStart{key: keyOf(x), uid: x.GetUID(), gen: x.GetGeneration(), variant: v})
	}
}

// probeFinish finishes the oldest pass even when its Binding changed
// since (a late result), or, when not late, every pass whose Binding is
// still at the generation it began with; the others are dropped. It
// returns the Bindings a result was finished for.
func (b *bindingWorld) probeFinish(ctx context.Context, c client.Reader, late bool) []types.NamespacedName {
	if len(b.inflight) == 0 {
		return nil
	}
	var done []probeStart
	if late {
		done, b.inflight = b.inflight[:1], b.inflight[1:]
	} else {
		for _, ps := range b.inflight {
			u, err := getStored(ctx, c, bindingGVK, ps.key)
			if err == nil && u != nil && u.GetUID() == ps.uid && u.GetGeneration() == ps.gen {
				done = append(done, ps)
			}
		}
		b.inflight = nil
	}
	var names []types.NamespacedName
	for _, ps := range done {
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(bindingGVK)
		u.SetNamespace(ps.key.Namespace)
		u.SetName(ps.key.Name)
		u.SetUID(ps.uid)
		res, ok := probe(u, ps.gen, ps.variant)
		if !ok {
			continue
		}
		b.probes[ps.uid] = res
		b.variant[ps.uid] = ps.variant
		names = append(names, ps.key.NamespacedName)
	}
	return names
}

// finish gives every Binding a finished probe of its generation, with
// the last variant drawn for it, and queues those it is news for.
func (b *bindingWorld) finish(ctx context.Context, c client.Reader, _ time.Time) (string, []types.NamespacedName, error) {
	b.inflight = nil
	bs, err := listAll(ctx, c, []schema.GroupVersionKind{bindingGVK})
	if err != nil {
		return "", nil, err
	}
	var names []types.NamespacedName
	for _, u := range bs {
		res, ok := probe(u, u.GetGeneration(), b.variant[u.GetUID()])
		if !ok {
			continue
		}
		// Only a new finding queues the Binding: one already held would
		// give a host a request it did not need to converge.
		if old, had := b.probes[u.GetUID()]; !had || old.Generation != res.Generation {
			names = append(names, keyOf(u).NamespacedName)
		}
		b.probes[u.GetUID()] = res
	}
	return "the prober finishes every Binding", names, nil
}

// probe is the prober's finding for one generation of a Binding: mostly
// a healthy backend and channel, now and then a backend that answers 503.
func probe(b *unstructured.Unstructured, generation int64, variant int) (binding.ProbeResult, bool) {
	if b.GetKind() != akv1.KindBinding {
		return binding.ProbeResult{}, false
	}
	var typed akv1.Binding
	typed.ObjectMeta = metav1.ObjectMeta{Namespace: b.GetNamespace(), Name: b.GetName(), UID: b.GetUID()}
	backend := bindingtest.CardOK()
	if variant%4 == 3 {
		backend = bindingtest.HTTP(503)
	}
	return bindingtest.Probe(typed, generation, backend, bindingtest.Joined()), true
}
