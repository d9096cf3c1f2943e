package finops_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/conditions/conditionstest"
	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/offering"
	"github.com/condengine/condengine/pricebook"
	"github.com/condengine/condengine/provider"
	"github.com/condengine/condengine/subscription"
)

// evaluate is Evaluate for snapshots whose Now is set; a refusal fails
// the test loudly.
func evaluate(s finops.Snapshot) finops.Result {
	r, err := finops.Evaluate(s)
	if err != nil {
		panic(err)
	}
	return r
}

func bookOutcome(r finops.Result, b *finopsv1.PriceBook) *pricebook.Outcome {
	for i := range r.PriceBooks.Books {
		if o := &r.PriceBooks.Books[i]; o.Namespace == b.Namespace && o.Name == b.Name && o.UID == b.UID {
			return o
		}
	}
	return nil
}

// checkOutcomes runs the shared outcome checks on every kind's list.
func checkOutcomes(t conditionstest.TB, r finops.Result) {
	t.Helper()
	conditionstest.CheckOutcomes(t, pricebook.Vocabulary, r.PriceBooks.Books)
	conditionstest.CheckOutcomes(t, offering.Vocabulary, r.Offerings.Offerings)
	conditionstest.CheckOutcomes(t, subscription.Vocabulary, r.Subscriptions.Subscriptions)
	conditionstest.CheckOutcomes(t, nil, r.CostJobs)
	conditionstest.CheckOutcomes(t, nil, r.Providers)
}

func TestEvaluate_ZeroNowIsAnError(t *testing.T) {
	s := finops.Snapshot{Subscriptions: []finopsv1.Subscription{{
		ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "acme", UID: "u1", Generation: 1},
		Spec:       finopsv1.SubscriptionSpec{OfferingRef: finopsv1.Reference{Namespace: "shop", Name: "base"}}}}}
	_, err := finops.Evaluate(s)
	require.ErrorIs(t, err, conditions.ErrZeroNow)
	_, _, err = finops.Settle(s, 3)
	require.ErrorIs(t, err, conditions.ErrZeroNow)
}

// The kinds the operator writes no status for still get the shared
// outcome: identity, their conditions as held (another controller's
// included), no write and why.
func TestEvaluate_UnwrittenKindsFillTheSharedOutcome(t *testing.T) {
	foreign := metav1.Condition{Type: "example.com/Synced", Status: "True", Reason: "ByOtherTool", ObservedGeneration: 3,
		LastTransitionTime: metav1.NewTime(now.Add(-time.Hour))}
	s := finops.Snapshot{Now: now,
		Providers: []finopsv1.FinOpsProvider{{ObjectMeta: metav1.ObjectMeta{Name: finopsv1.SingletonName, UID: "p1", Generation: 3},
			Spec:   finopsv1.FinOpsProviderSpec{OnPremOptions: &finopsv1.OnPremOptions{}},
			Status: finopsv1.FinOpsProviderStatus{Conditions: []metav1.Condition{foreign}}}},
		CostJobs: []finopsv1.CostJob{
			{ObjectMeta: metav1.ObjectMeta{Namespace: "finops", Name: "z-hourly", UID: "j2", Generation: 2}, Spec: finopsv1.CostJobSpec{Interval: "1h"}},
			{ObjectMeta: metav1.ObjectMeta{Namespace: "finops", Name: "a-odd", UID: "j1", Generation: 1}, Spec: finopsv1.CostJobSpec{Interval: "7m"}},
		},
	}
	r := evaluate(s)
	checkOutcomes(t, r)

	require.Len(t, r.Providers, 1)
	p := r.Providers[0]
	assert.Equal(t, conditions.Outcome{Kind: finopsv1.KindFinOpsProvider, Name: finopsv1.SingletonName, UID: "p1", Generation: 3,
		Conditions: []metav1.Condition{foreign}, Skip: conditions.SkipNeverWritten}, p.Outcome)
	assert.Equal(t, provider.BranchOnPrem, p.Plan.Branch)
	assert.Equal(t, s.Providers[0].Status, p.Status)

	require.Len(t, r.CostJobs, 2)
	assert.Equal(t, "a-odd", r.CostJobs[0].Name, "sorted by name, not by input position")
	assert.False(t, r.CostJobs[0].Recognised)
	assert.Equal(t, conditions.Outcome{Kind: finopsv1.KindCostJob, Namespace: "finops", Name: "z-hourly", UID: "j2", Generation: 2,
		Skip: conditions.SkipNeverWritten}, r.CostJobs[1].Outcome)
	assert.True(t, r.CostJobs[1].Recognised)
	assert.NotEmpty(t, r.CostJobs[1].Schedule)
}

// Shuffled lists give the same result, byte for byte, and every list of
// outcomes is sorted.
func TestProperty_ResultIndependentOfListOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := world(t)
		p := shuffled(t, s)
		a, b := evaluate(s), evaluate(p)
		if x, y := jsonOf(t, a), jsonOf(t, b); x != y {
			t.Fatalf("shuffled input, another result:\n%s\n%s", x, y)
		}
		checkOutcomes(t, a)
	})
}

func jsonOf(t *rapid.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
