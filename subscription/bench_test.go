package subscription_test

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/subscription"
	st "github.com/condengine/condengine/subscription/subscriptiontest"
)

// benchSnapshot builds n Subscriptions in families of size members: each
// family a random tree (every member's parent drawn among the earlier
// ones), every third member bound to an Offering that requires another,
// nine in ten active and stamped, the rest new, then one evaluation
// applied so the benchmark measures the steady state. The seed is fixed
// so runs compare.
func benchSnapshot(n, members int) subscription.Snapshot {
	snap := coldSnapshot(n, members)
	// Start from the state the engine itself wrote, as a host would.
	snap.Subscriptions = subscription.Apply(snap.Subscriptions, evaluate(snap))
	return snap
}

// coldSnapshot is benchSnapshot before any evaluation: the conditions
// carry no messages yet and a tenth of the members still need a stamp.
func coldSnapshot(n, members int) subscription.Snapshot {
	r := rand.New(rand.NewPCG(1, uint64(members)))
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	at := metav1.NewTime(now.Add(-24 * time.Hour))
	snap := subscription.Snapshot{Now: now, Offerings: []finopsv1.Offering{
		st.ReadyOffering("shop", "base"),
		st.ReadyOffering("shop", "db"),
		st.ReadyOffering("shop", "app", finopsv1.Reference{Namespace: "shop", Name: "db"}),
	}}
	offs := []finopsv1.Reference{{Namespace: "shop", Name: "base"}, {Namespace: "shop", Name: "db"}, {Namespace: "shop", Name: "app"}}
	snap.Subscriptions = make([]finopsv1.Subscription, n)
	for i := range snap.Subscriptions {
		f, m := i/members, i%members
		s := &snap.Subscriptions[i]
		s.Namespace = fmt.Sprintf("fam-%d", f)
		s.Name = fmt.Sprintf("m-%d", m)
		s.UID = types.UID(fmt.Sprintf("u-%d-%d", f, m))
		s.Generation = 1
		s.Spec.OfferingRef = offs[m%3]
		if m > 0 {
			s.Spec.Parent = &finopsv1.Parent{SubscriptionRef: finopsv1.Reference{Namespace: s.Namespace, Name: fmt.Sprintf("m-%d", r.IntN(m))}}
		}
		if r.IntN(10) > 0 {
			st.Active(at.Time, fmt.Sprintf("u-%d-0", f))(s)
		}
	}
	return snap
}

func BenchmarkEvaluate(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		for _, members := range []int{10, 100, 1_000, 10_000} {
			snap := benchSnapshot(n, members)
			b.Run(fmt.Sprintf("subs=%d/family=%d", n, members), func(b *testing.B) {
				measure(b, snap)
			})
		}
	}
}

// BenchmarkEvaluateCold measures the pass that rewrites every condition
// and stamps the new members' roots.
func BenchmarkEvaluateCold(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		snap := coldSnapshot(n, 1_000)
		b.Run(fmt.Sprintf("subs=%d/family=1000", n), func(b *testing.B) {
			measure(b, snap)
		})
	}
}

// measure runs Evaluate b.N times and reports wall and CPU time per
// Subscription.
func measure(b *testing.B, snap subscription.Snapshot) {
	b.ReportAllocs()
	n := float64(len(snap.Subscriptions))
	cpu := cpuTime()
	for b.Loop() {
		_, _ = subscription.Evaluate(snap)
	}
	cpu = cpuTime() - cpu
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/sub")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/n, "cpu-ns/sub")
}

// BenchmarkEvaluateListOrder is the steady state with the Subscriptions
// in the API server's list order (namespace, then name), which skips the
// sort.
func BenchmarkEvaluateListOrder(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		snap := benchSnapshot(n, 1_000)
		slices.SortFunc(snap.Subscriptions, func(x, y finopsv1.Subscription) int {
			return cmp.Or(cmp.Compare(x.Namespace, y.Namespace), cmp.Compare(x.Name, y.Name))
		})
		b.Run(fmt.Sprintf("subs=%d/family=1000", n), func(b *testing.B) {
			measure(b, snap)
		})
	}
}
