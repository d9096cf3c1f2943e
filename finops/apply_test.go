package finops_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/offering"
	"github.com/condengine/condengine/pricebook"
	"github.com/condengine/condengine/subscription"
)

// meta is the identity Apply matches an outcome by; deleting sets a
// deletion timestamp.
func meta(name string, deleting bool, finalizers ...string) metav1.ObjectMeta {
	m := metav1.ObjectMeta{Namespace: "a", Name: name, UID: types.UID("u-" + name), Finalizers: finalizers}
	if deleting {
		at := metav1.NewTime(now)
		m.DeletionTimestamp = &at
	}
	return m
}

func shared(name string, write bool, f conditions.FinalizerAction) conditions.Outcome {
	return conditions.Outcome{Namespace: "a", Name: name, UID: types.UID("u-" + name), Write: write, Finalizer: f}
}

// Apply carries out each kind's outcomes as the API server would: status
// written only when due, finalizers added and dropped, and an object
// gone once its last finalizer goes while it is being deleted (an
// Offering's finalizer only ever goes then).
func TestApply_StatusFinalizersAndRemoval(t *testing.T) {
	other := "example.com/other"
	s := finops.Snapshot{Now: now,
		PriceBooks: []finopsv1.PriceBook{{ObjectMeta: meta("book", false)}, {ObjectMeta: meta("book-kept", false)}},
		Offerings: []finopsv1.Offering{
			{ObjectMeta: meta("off-new", false)},
			{ObjectMeta: meta("off-gone", true, finopsv1.OfferingFinalizer)},
			{ObjectMeta: meta("off-held", true, finopsv1.OfferingFinalizer, other)},
			{ObjectMeta: meta("off-stranger", true, finopsv1.OfferingFinalizer)},
		},
		Subscriptions: []finopsv1.Subscription{
			{ObjectMeta: meta("sub-gone", true, finopsv1.SubscriptionFinalizer)},
			{ObjectMeta: meta("sub-held", true, finopsv1.SubscriptionFinalizer, other)},
			{ObjectMeta: meta("sub-live", false, finopsv1.SubscriptionFinalizer)},
		},
	}
	// An outcome for another object of the same name is not carried out.
	stranger := shared("off-stranger", true, conditions.FinalizerRemove)
	stranger.UID = "u-earlier"
	r := finops.Result{
		PriceBooks: pricebook.Result{Books: []pricebook.Outcome{
			{Outcome: shared("book", true, conditions.FinalizerKeep), Status: finopsv1.PriceBookStatus{Ready: "True"}},
			{Outcome: shared("book-kept", false, conditions.FinalizerKeep), Status: finopsv1.PriceBookStatus{Ready: "False"}},
		}},
		Offerings: offering.Result{Offerings: []offering.Outcome{
			{Outcome: shared("off-new", true, conditions.FinalizerAdd), Status: finopsv1.OfferingStatus{Ready: "True"}},
			{Outcome: shared("off-gone", false, conditions.FinalizerRemove)},
			{Outcome: shared("off-held", false, conditions.FinalizerRemove), Status: finopsv1.OfferingStatus{Ready: "False"}},
			{Outcome: stranger},
		}},
		Subscriptions: subscription.Result{Subscriptions: []subscription.Outcome{
			{Outcome: shared("sub-gone", false, conditions.FinalizerRemove)},
			{Outcome: shared("sub-held", false, conditions.FinalizerRemove), Status: finopsv1.SubscriptionStatus{Ready: "False"}},
			{Outcome: shared("sub-live", true, conditions.FinalizerRemove), Status: finopsv1.SubscriptionStatus{Ready: "True"}},
		}},
	}
	next := finops.Apply(s, r)

	assert.Equal(t, metav1.ConditionTrue, next.PriceBooks[0].Status.Ready)
	assert.Empty(t, next.PriceBooks[1].Status.Ready, "no write due: status as it was")

	var offs []string
	for _, o := range next.Offerings {
		offs = append(offs, o.Name)
	}
	assert.Equal(t, []string{"off-new", "off-held", "off-stranger"}, offs)
	assert.Equal(t, metav1.ConditionTrue, next.Offerings[0].Status.Ready)
	assert.Equal(t, []string{finopsv1.OfferingFinalizer}, next.Offerings[0].Finalizers)
	assert.Equal(t, []string{other}, next.Offerings[1].Finalizers)
	assert.Empty(t, next.Offerings[1].Status.Ready, "no write due: status as it was")
	assert.Equal(t, []string{finopsv1.OfferingFinalizer}, next.Offerings[2].Finalizers)

	var subs []string
	for _, x := range next.Subscriptions {
		subs = append(subs, x.Name)
	}
	assert.Equal(t, []string{"sub-held", "sub-live"}, subs)
	assert.Equal(t, []string{other}, next.Subscriptions[0].Finalizers)
	assert.Empty(t, next.Subscriptions[0].Status.Ready, "no write due: status as it was")
	assert.Empty(t, next.Subscriptions[1].Finalizers, "not being deleted: kept without the finalizer")
	assert.Equal(t, metav1.ConditionTrue, next.Subscriptions[1].Status.Ready)

	assert.Equal(t, []string{finopsv1.OfferingFinalizer}, s.Offerings[1].Finalizers, "s itself is not modified")
	assert.Equal(t, []string{finopsv1.SubscriptionFinalizer}, s.Subscriptions[2].Finalizers, "s itself is not modified")
	assert.Empty(t, s.Offerings[0].Finalizers, "s itself is not modified")
}
