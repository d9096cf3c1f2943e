package binding_test

import (
	"runtime"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/types"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
)

// brokerWorld is benchWorld's mixed world of n Bindings with its
// ChatConnections spread over the given number of brokers ("broker-0",
// …), so that each broker answers for about n/brokers Bindings.
func brokerWorld(n, brokers int) binding.Snapshot {
	s := benchWorld(n, false)
	for i := range s.Connections {
		s.Connections[i].Spec.Broker = "broker-" + strconv.Itoa(i%brokers)
	}
	return s
}

// brokerShare is what a broker's informers hold when they select its own
// ChatConnections and the Bindings naming them: those Bindings, the
// AgentBackends they name, their probe results and memory entries. It is
// the split a deployment makes with selectors, written out for the test.
func brokerShare(s binding.Snapshot, broker string) binding.Snapshot {
	type key struct{ ns, name string }
	conns := map[key]bool{}
	share := binding.Snapshot{Now: s.Now, Broker: s.Broker}
	share.Broker.Name = broker
	for _, c := range s.Connections {
		if c.Spec.Broker == broker {
			conns[key{c.Namespace, c.Name}] = true
			share.Connections = append(share.Connections, c)
		}
	}
	ref := func(ns string, r akv1.Ref) key {
		if r.Namespace != "" {
			ns = r.Namespace
		}
		return key{ns, r.Name}
	}
	uids := map[types.UID]bool{}
	backends := map[key]bool{}
	for _, b := range s.Bindings {
		if conns[ref(b.Namespace, b.Spec.Chat.ConnectionRef)] {
			share.Bindings = append(share.Bindings, b)
			uids[b.UID] = true
			backends[ref(b.Namespace, b.Spec.Agent.BackendRef)] = true
		}
	}
	for _, b := range s.Backends {
		if backends[key{b.Namespace, b.Name}] {
			share.Backends = append(share.Backends, b)
		}
	}
	for _, p := range s.Probes {
		if uids[p.UID] {
			share.Probes = append(share.Probes, p)
		}
	}
	for _, m := range s.Served.Objects {
		if uids[m.UID] {
			share.Served.Objects = append(share.Served.Objects, m)
		}
	}
	return share
}

// A broker evaluating only its share decides every one of its Bindings
// as it would with the whole cluster in view: no rule crosses from one
// connection to another, so the split loses nothing. And the share costs
// what the share holds: in a cluster four times larger, with the same
// share, evaluating it allocates the same.
func TestEvaluate_BrokerShareIsSelfContained(t *testing.T) {
	whole := brokerWorld(4_000, 4)
	whole = binding.Apply(whole, mustEvaluate(whole)) // some written, some not
	for k := range 4 {
		name := "broker-" + strconv.Itoa(k)
		all := whole
		all.Broker.Name = name
		want := mustEvaluate(all)
		share := brokerShare(whole, name)
		require.NotEmpty(t, share.Bindings)
		got := mustEvaluate(share)
		require.Len(t, got.Bindings, len(want.Bindings), name)
		for i := range want.Bindings {
			w, g := want.Bindings[i], got.Bindings[i]
			assert.Equal(t, w.UID, g.UID, name)
			assert.Equal(t, w.Write, g.Write, "%s %s", name, w.UID)
			assert.Equal(t, w.Status, g.Status, "%s %s", name, w.UID)
		}
	}

	// Bytes allocated, not time: they do not swing with the machine's
	// load.
	allocated := func(s binding.Snapshot) float64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_ = mustEvaluate(s)
		runtime.ReadMemStats(&after)
		return float64(after.TotalAlloc - before.TotalAlloc)
	}
	bytes := func(brokers int) (share, whole float64) {
		s := brokerWorld(1_000*brokers, brokers)
		s.Broker.Name = "broker-0"
		return allocated(brokerShare(s, "broker-0")), allocated(s)
	}
	share2, whole2 := bytes(2)
	share8, whole8 := bytes(8)
	t.Logf("bytes allocated: share %.0f / %.0f, whole %.0f / %.0f at 2 / 8 brokers", share2, share8, whole2, whole8)
	assert.Greater(t, whole8/whole2, 2.5, "the whole cluster grows: %v bytes at 2 brokers, %v at 8", whole2, whole8)
	assert.Less(t, share8/share2, 1.25, "a share of the same size allocates %v bytes in a cluster of 2 brokers, %v in one of 8", share2, share8)
}

// BenchmarkBrokerShare measures one broker's share (10,000 Bindings)
// beside the whole cluster it is part of, at 1, 4 and 10 brokers: the
// share's cost stays put while the whole grows.
func BenchmarkBrokerShare(b *testing.B) {
	const perBroker = 10_000
	for _, brokers := range []int{1, 4, 10} {
		whole := brokerWorld(perBroker*brokers, brokers)
		whole = binding.Apply(whole, mustEvaluate(whole))
		whole.Broker.Name = "broker-0"
		share := brokerShare(whole, "broker-0")
		b.Run("brokers="+strconv.Itoa(brokers)+"/share", func(b *testing.B) {
			runPerBinding(b, share)
		})
		b.Run("brokers="+strconv.Itoa(brokers)+"/whole", func(b *testing.B) {
			runPerBinding(b, whole)
		})
	}
}
