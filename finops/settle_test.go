package finops_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/offering"
	ot "github.com/condengine/condengine/offering/offeringtest"
	"github.com/condengine/condengine/pricebook"
	pb "github.com/condengine/condengine/pricebook/pricebooktest"
	st "github.com/condengine/condengine/subscription/subscriptiontest"
)

var now = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

func condEqual(a, b metav1.Condition) bool {
	return conditions.Equal([]metav1.Condition{a}, []metav1.Condition{b})
}

func TestEvaluate_OneLevelPerEvaluation(t *testing.T) {
	// The book is elected in the first evaluation; the metered Offering
	// reads the stored flag, so it prices only in the second.
	s := finops.Snapshot{Now: now,
		PriceBooks: []finopsv1.PriceBook{pb.New("finops", "std", pb.Rate(pricebook.CPUHour, "0.031"))},
		Offerings:  []finopsv1.Offering{ot.New("shop", "m", ot.Meter(finopsv1.MeterCPUHour, nil))}}
	r := evaluate(s)
	assert.Equal(t, string(offering.ReasonNoActivePricebook), r.Offerings.Offerings[0].Status.Conditions[0].Reason)
	settled, rounds, err := finops.Settle(s, 10)
	require.NoError(t, err)
	assert.Equal(t, 2, rounds)
	assert.Equal(t, metav1.ConditionTrue, settled.Offerings[0].Status.Ready)
	assert.Equal(t, int64(31_000), settled.Offerings[0].Status.ResolvedPricing.Meters[0].UnitPriceMicros)
	assert.Equal(t, "0.031", settled.PricingDocument[pricebook.KeyCPU])
}

func TestSettle_ReportsNonConvergence(t *testing.T) {
	// A chain of twenty requirements needs about twenty rounds.
	var offs []finopsv1.Offering
	for i := 0; i < 20; i++ {
		o := ot.New("shop", fmt.Sprintf("o%02d", i))
		if i < 19 {
			ot.Requires(ot.Ref("shop", fmt.Sprintf("o%02d", i+1)))(&o)
		}
		offs = append(offs, o)
	}
	s := finops.Snapshot{Now: now, Offerings: offs}
	_, _, err := finops.Settle(s, 5)
	require.Error(t, err)
	assert.True(t, errors.Is(err, finops.ErrNotSettled))
	settled, rounds, err := finops.Settle(s, 50)
	require.NoError(t, err)
	assert.Equal(t, 20, rounds)
	for _, o := range settled.Offerings {
		assert.Equal(t, metav1.ConditionTrue, o.Status.Ready, o.Name)
	}
}

func TestSettle_DeletedOfferingLeavesOnceDependentsGo(t *testing.T) {
	s := finops.Snapshot{Now: now,
		Offerings: []finopsv1.Offering{ot.New("shop", "base", ot.Ready(), ot.Deleting())},
		Subscriptions: []finopsv1.Subscription{
			st.New("shop", "acme", st.Offering("shop", "base"), st.Active(now.Add(-time.Hour), "u-acme"))},
	}
	s.Subscriptions[0].Status.Ready = metav1.ConditionTrue
	r := evaluate(s)
	assert.Equal(t, string(offering.ReasonDependentSubscriptionsExist), r.Offerings.Offerings[0].Status.Conditions[0].Reason)
	assert.Equal(t, conditions.FinalizerKeep, r.Offerings.Offerings[0].Finalizer)

	s.Subscriptions = nil
	settled, _, err := finops.Settle(s, 10)
	require.NoError(t, err)
	assert.Empty(t, settled.Offerings, "the finalizer went, so the API server deletes it")
}
