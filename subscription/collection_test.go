package subscription_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/subscription"
	st "github.com/condengine/condengine/subscription/subscriptiontest"
)

var scheduled = time.Date(2026, 4, 1, 13, 0, 0, 0, time.UTC)

func run(results ...subscription.CollectionResult) *subscription.Collection {
	return &subscription.Collection{ScheduledHour: scheduled, Results: results}
}

func result(ns, name string, buckets int, src subscription.Source) subscription.CollectionResult {
	return subscription.CollectionResult{Subscription: finopsv1.Reference{Namespace: ns, Name: name}, Buckets: buckets, Source: src}
}

// deleted is a Subscription deleted and deactivated at off, activated at
// 09:00 on the scheduled day.
func deleted(off time.Time, opts ...st.Option) finopsv1.Subscription {
	s := st.New("a", "x", append([]st.Option{st.Active(scheduled.Add(-4*time.Hour), "u-a-x"), st.Deleting(off)}, opts...)...)
	t := metav1.NewTime(off)
	s.Status.DeactivatedAt = &t
	return s
}

func metered(fee bool) finopsv1.Offering {
	o := st.ReadyOffering("shop", "base")
	if fee {
		o = st.Fee(o, 40_000_000, "1h", finopsv1.AlignActivatedAt, 0)
	}
	o.Spec.Pricing.ResourcePricing = []finopsv1.ResourcePricing{{Name: finopsv1.MeterCPUHour}}
	return o
}

func TestFinalizer_UsageBilledSettlesAtTheAllocationBoundary(t *testing.T) {
	s := deleted(scheduled.Add(-90*time.Minute), func(s *finopsv1.Subscription) {
		s.Spec.UsageSources = []finopsv1.UsageSource{{Namespace: "a"}}
	})
	snap := subscription.Snapshot{Now: scheduled, Offerings: []finopsv1.Offering{metered(true)}, Subscriptions: []finopsv1.Subscription{s},
		Collection: run(result("a", "x", 3, subscription.SourceDB))}
	snap.Collection.AllocationBoundary = scheduled.Add(-2 * time.Hour) // usage rows finalized only up to 11:00
	assert.False(t, evaluate(snap).Subscriptions[0].Finalizer == conditions.FinalizerRemove, "the deactivation hour 11:00 is not below the boundary")
	snap.Collection.AllocationBoundary = scheduled
	assert.True(t, evaluate(snap).Subscriptions[0].Finalizer == conditions.FinalizerRemove)
}

func TestFinalizer_FeeOnlyIgnoresTheAllocationBoundary(t *testing.T) {
	snap := subscription.Snapshot{Now: scheduled, Offerings: []finopsv1.Offering{metered(true)},
		Subscriptions: []finopsv1.Subscription{deleted(scheduled.Add(-90 * time.Minute))}, // no usage sources
		Collection:    run()}
	snap.Collection.AllocationBoundary = scheduled.Add(-5 * time.Hour)
	assert.True(t, evaluate(snap).Subscriptions[0].Finalizer == conditions.FinalizerRemove)
}

func TestFinalizer_BadFeeIsAnErrorThatHoldsIt(t *testing.T) {
	o := st.Fee(st.ReadyOffering("shop", "base"), 40_000_000, "1d", finopsv1.AlignDayBoundary, 0)
	res := evaluate(subscription.Snapshot{Now: scheduled, Offerings: []finopsv1.Offering{o},
		Subscriptions: []finopsv1.Subscription{deleted(scheduled.Add(-3 * time.Hour))},
		Collection:    run(result("a", "x", 3, subscription.SourceDB))})
	out := res.Subscriptions[0]
	assert.False(t, out.Finalizer == conditions.FinalizerRemove)
	require.NotEmpty(t, out.Errors)
	assert.Contains(t, out.Errors[0], "subscription fee")
	assert.Empty(t, reason(out, subscription.TypeCostsResolved), "no CostsResolved from a run that failed for it")
}

func TestCosts_UsageBilledKeepsTheHostsBuckets(t *testing.T) {
	host := []finopsv1.CostBucket{{Granularity: finopsv1.GranularityHour, Start: metav1.NewTime(scheduled), EndExclusive: metav1.NewTime(scheduled.Add(time.Hour)), Current: 7}}
	s := st.New("a", "x", st.Active(scheduled.Add(-4*time.Hour), "u-a-x"), func(s *finopsv1.Subscription) {
		s.Spec.UsageSources = []finopsv1.UsageSource{{Namespace: "a"}}
		s.Status.Costs = host
	})
	res := evaluate(subscription.Snapshot{Now: scheduled, Offerings: []finopsv1.Offering{metered(true)},
		Subscriptions: []finopsv1.Subscription{s}, Collection: run(result("a", "x", 3, subscription.SourceDB))})
	out := res.Subscriptions[0]
	assert.Equal(t, host, out.Status.Costs)
	assert.Equal(t, "True FromDB", reason(out, subscription.TypeCostsResolved))
}

func TestCosts_FeeOnlyBucketsComputed(t *testing.T) {
	o := st.Fee(st.ReadyOffering("shop", "base"), 40_000_000, "1h", finopsv1.AlignActivatedAt, 0)
	s := st.New("a", "x", st.Active(scheduled.Add(-4*time.Hour), "u-a-x"))
	res := evaluate(subscription.Snapshot{Now: scheduled, Offerings: []finopsv1.Offering{o},
		Subscriptions: []finopsv1.Subscription{s}, Collection: run(result("a", "x", 3, subscription.SourceCalculator))})
	c := res.Subscriptions[0].Status.Costs
	require.Len(t, c, 3)
	assert.Equal(t, int64(160_000_000), c[1].Current, "day bucket: four ticks, 10:00 to 13:00")
	assert.Equal(t, int64(600_000_000), c[1].Projected)
}

func TestCostsResolved_NeverWrittenForZeroBuckets(t *testing.T) {
	o := st.Fee(st.ReadyOffering("shop", "base"), 40_000_000, "1h", finopsv1.AlignActivatedAt, 0)
	s := st.New("a", "x", st.Active(scheduled.Add(-4*time.Hour), "u-a-x"))
	for _, src := range []subscription.Source{subscription.SourceDB, subscription.SourceCalculator, subscription.SourceError} {
		res := evaluate(subscription.Snapshot{Now: scheduled, Offerings: []finopsv1.Offering{o},
			Subscriptions: []finopsv1.Subscription{s}, Collection: run(result("a", "x", 0, src))})
		assert.Empty(t, reason(res.Subscriptions[0], subscription.TypeCostsResolved), src)
		assert.Nil(t, res.Subscriptions[0].Status.Costs, src)
	}
}
