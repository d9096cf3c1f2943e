package offering_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/offering"
	ot "github.com/condengine/condengine/offering/offeringtest"
)

func deletingOf(t *testing.T, s offering.Snapshot) (offering.Outcome, metav1.Condition) {
	t.Helper()
	s.Now = now
	outs := inInputOrder(s.Offerings, evaluate(s))
	for i := range s.Offerings {
		if s.Offerings[i].IsDeleting() {
			c := conditions.Find(outs[i].Status.Conditions, offering.TypeDeleting)
			require.NotNil(t, c)
			return outs[i], *c
		}
	}
	t.Fatal("no deleting offering")
	return offering.Outcome{}, metav1.Condition{}
}

func sub(ns, name string, ready bool) offering.Dependent {
	return offering.Dependent{Namespace: ns, Name: name, OfferingRef: ot.Ref("shop", "base"), Ready: ready}
}

func TestDeleting_DependentSubscriptionsExist_OnlyReadyCount(t *testing.T) {
	base := ot.New("shop", "base", ot.Deleting(), ot.Ready())
	out, c := deletingOf(t, offering.Snapshot{Offerings: []finopsv1.Offering{base},
		Dependents: []offering.Dependent{sub("shop", "acme", true), sub("shop", "gone", false), sub("other", "secret-customer", true)}})
	assert.Equal(t, metav1.ConditionFalse, c.Status)
	assert.Equal(t, string(offering.ReasonDependentSubscriptionsExist), c.Reason)
	assert.Equal(t, "still referenced by subscriptions: shop/acme; 1 in other namespaces", c.Message)
	assert.NotContains(t, c.Message, "secret-customer")
	assert.Equal(t, conditions.FinalizerKeep, out.Finalizer)
	assert.True(t, out.Retry)
}

func TestDeleting_NotReadySubscriptionDoesNotBlock(t *testing.T) {
	base := ot.New("shop", "base", ot.Deleting())
	out, c := deletingOf(t, offering.Snapshot{Offerings: []finopsv1.Offering{base},
		Dependents: []offering.Dependent{sub("shop", "winding-down", false)}})
	assert.Equal(t, string(offering.ReasonDeletionAllowed), c.Reason)
	assert.Equal(t, metav1.ConditionTrue, c.Status)
	assert.Equal(t, conditions.FinalizerRemove, out.Finalizer)
}

func TestDeleting_DependentOfferingsExist(t *testing.T) {
	offs := []finopsv1.Offering{
		ot.New("shop", "base", ot.Deleting()),
		ot.New("shop", "addon", ot.Ready(), ot.Requires(ot.Ref("shop", "base"))),
		ot.New("shop", "draft", ot.NotReady(), ot.Requires(ot.Ref("shop", "base"))),
	}
	_, c := deletingOf(t, offering.Snapshot{Offerings: offs})
	assert.Equal(t, string(offering.ReasonDependentOfferingsExist), c.Reason)
	assert.Equal(t, "still required by dependent resources: shop/addon", c.Message)
}

func TestDeleting_SubscriptionsCheckedBeforeOfferings(t *testing.T) {
	offs := []finopsv1.Offering{
		ot.New("shop", "base", ot.Deleting()),
		ot.New("shop", "addon", ot.Ready(), ot.Requires(ot.Ref("shop", "base"))),
	}
	_, c := deletingOf(t, offering.Snapshot{Offerings: offs, Dependents: []offering.Dependent{sub("shop", "acme", true)}})
	assert.Equal(t, string(offering.ReasonDependentSubscriptionsExist), c.Reason)
}

func TestDeleting_LookupFailureIsValidationError(t *testing.T) {
	_, c := deletingOf(t, offering.Snapshot{Offerings: []finopsv1.Offering{ot.New("shop", "base", ot.Deleting())},
		Failures: []offering.Failure{{Kind: "Subscription"}}})
	assert.Equal(t, string(offering.ReasonValidationError), c.Reason)
	assert.Equal(t, metav1.ConditionFalse, c.Status)
}

func TestDeleting_KeepsReadyAndPricingResolvedAsTheyWere(t *testing.T) {
	earlier := metav1.NewTime(now.Add(-time.Hour))
	base := ot.New("shop", "base", ot.Deleting(), ot.Ready())
	base.Status.Conditions = []metav1.Condition{
		{Type: offering.TypeReady, Status: metav1.ConditionTrue, Reason: string(offering.ReasonValidationSucceeded), ObservedGeneration: 1, LastTransitionTime: earlier},
		{Type: offering.TypePricingResolved, Status: metav1.ConditionTrue, Reason: string(offering.ReasonPricingResolved), ObservedGeneration: 1, LastTransitionTime: earlier},
	}
	// A requirement that is now missing would fail a live Offering; the
	// delete branch does not look.
	ot.Requires(ot.Ref("shop", "vanished"))(&base)
	out, _ := deletingOf(t, offering.Snapshot{Offerings: []finopsv1.Offering{base}})
	require.Len(t, out.Status.Conditions, 3)
	assert.Equal(t, base.Status.Conditions[0], out.Status.Conditions[0])
	assert.Equal(t, base.Status.Conditions[1], out.Status.Conditions[1])
	assert.Equal(t, offering.TypeDeleting, out.Status.Conditions[2].Type)
	assert.Equal(t, metav1.ConditionTrue, out.Status.Ready)
}

func TestDeleting_ManyDependentsMessageBounded(t *testing.T) {
	var deps []offering.Dependent
	for i := 0; i < 40; i++ {
		deps = append(deps, sub("shop", fmt.Sprintf("s%02d", i), true))
	}
	_, c := deletingOf(t, offering.Snapshot{Offerings: []finopsv1.Offering{ot.New("shop", "base", ot.Deleting())}, Dependents: deps})
	assert.Equal(t, "still referenced by subscriptions: shop/s00, shop/s01, shop/s02, shop/s03, shop/s04 and 35 more", c.Message)
}

func TestDeleting_NoFinalizerNothingToRemove(t *testing.T) {
	out, c := deletingOf(t, offering.Snapshot{Offerings: []finopsv1.Offering{ot.New("shop", "base", ot.Deleting(), ot.NoFinalizer())}})
	assert.Equal(t, string(offering.ReasonDeletionAllowed), c.Reason)
	assert.Equal(t, conditions.FinalizerKeep, out.Finalizer)
	assert.NotEqual(t, conditions.FinalizerAdd, out.Finalizer, "a deleting object never gains a finalizer")
}
