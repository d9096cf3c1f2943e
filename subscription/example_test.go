package subscription_test

import (
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/subscription"
)

func ExampleEvaluate() {
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	base := finopsv1.Offering{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "base"},
		Status:     finopsv1.OfferingStatus{Ready: metav1.ConditionTrue},
	}
	acme := finopsv1.Subscription{
		ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "acme", UID: "u-acme", Generation: 1},
		Spec:       finopsv1.SubscriptionSpec{OfferingRef: finopsv1.Reference{Namespace: "shop", Name: "base"}},
	}
	res, err := subscription.Evaluate(subscription.Snapshot{
		Now:           now,
		Subscriptions: []finopsv1.Subscription{acme},
		Offerings:     []finopsv1.Offering{base},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	o := res.Subscriptions[0]
	fmt.Println(o.Kind, o.Namespace+"/"+o.Name, "write:", o.Write, "owned:", len(o.Owned))
	for _, c := range o.Status.Conditions {
		fmt.Println(c.Type, c.Status, c.Reason)
	}
	fmt.Println("activatedAt:", o.Status.ActivatedAt.UTC().Format(time.RFC3339))
	fmt.Println("root:", o.Status.CompatibilityRoot, "write:", o.Write)
	// Output:
	// Subscription team-a/acme write: true owned: 2
	// Ready True ActivationSucceeded
	// Active True ActivationSucceeded
	// activatedAt: 2026-11-30T10:00:00Z
	// root: u-acme write: true
}
