package hostcheck

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/bindingtest"
)

// unstructuredOf converts typed objects as the store holds them.
func unstructuredOf(t *testing.T, objs ...any) []*unstructured.Unstructured {
	t.Helper()
	var out []*unstructured.Unstructured
	for _, o := range objs {
		m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, &unstructured.Unstructured{Object: m})
	}
	sortObjects(out)
	return out
}

// A long-running broker whose cache held generation 1 of a Binding
// beside its backend served that generation, though the store never
// held the two at once (the backend came after the edit to generation
// 2, and its event reached the cache before the edit's). It correctly
// writes "generation 2 is refused, generation 1 is served"; the oracle
// may not hold it to the answer of a broker that never served
// generation 1.
func TestBindingOracle_LongRunningBrokerServedAnOlderGeneration(t *testing.T) {
	now := t0
	h := bindingtest.Healthy(now, healthyNamespace, 1)
	gen1 := h.Bindings[0]
	gen1.Generation = 1
	gen2 := *gen1.DeepCopy()
	gen2.Generation = 2
	gen2.Spec.Agent.BackendRef.Name = "missing"
	conn, echo := h.Connections[0], h.Backends[0]

	w := &bindingWorld{probes: map[types.UID]binding.ProbeResult{}, variant: map[types.UID]int{}}
	w.trackObjs(unstructuredOf(t, &conn, &gen1), now)
	w.trackObjs(unstructuredOf(t, &conn, &echo, &gen2), now)

	long := h
	long.Bindings = []akv1.Binding{gen1}
	first, err := binding.Evaluate(long)
	if err != nil {
		t.Fatal(err)
	}
	long.Bindings, long.Served = []akv1.Binding{gen2}, first.Memory
	res, err := binding.Evaluate(long)
	if err != nil {
		t.Fatal(err)
	}
	stored := *gen2.DeepCopy()
	stored.Status.Conditions = res.Bindings[0].Owned
	final := unstructuredOf(t, &conn, &echo, &stored)

	fresh, _, err := bindingFixpoint(final, h.Probes, now, h.Broker.StartedAt, binding.ServedMemory{})
	if err != nil {
		t.Fatal(err)
	}
	k := ObjectKey{Kind: akv1.KindBinding, NamespacedName: types.NamespacedName{Namespace: stored.Namespace, Name: stored.Name}}
	if sameOurs(fresh[k].Settled, stored.Status.Conditions) {
		t.Fatalf("the scenario does not tell the two brokers apart: both answer %s", formatConditions(stored.Status.Conditions))
	}
	exp, err := w.expect(final, h.Probes, now, h.Broker.StartedAt)
	if err != nil {
		t.Fatal(err)
	}
	if e := exp.Objects[k]; e.Judged && !sameOurs(e.Settled, stored.Status.Conditions) {
		t.Fatalf("the long-running broker's answer %s is blamed; the oracle expects %s", formatConditions(stored.Status.Conditions), formatConditions(e.Settled))
	}
}
