package subscription_test

import (
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/subscription"
	st "github.com/condengine/condengine/subscription/subscriptiontest"
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

// A deleted root takes its child down one evaluation later; Settle runs
// the evaluations until nothing changes.
func ExampleSettle() {
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	snap := subscription.Snapshot{
		Now:       now,
		Offerings: []finopsv1.Offering{st.ReadyOffering("shop", "base")},
		Subscriptions: []finopsv1.Subscription{
			st.New("team-a", "root", st.Active(now.Add(-time.Hour), "u-team-a-root"), st.Deleting(now)),
			st.New("team-a", "child", st.Parent("team-a", "root"), st.Active(now.Add(-time.Hour), "u-team-a-root")),
		},
	}
	settled, rounds, err := subscription.Settle(snap, 10)
	fmt.Println("settled:", err == nil, "after", rounds, "evaluations that changed something")
	for _, s := range settled.Subscriptions {
		for _, c := range s.Status.Conditions {
			if c.Type == subscription.TypeActive {
				fmt.Println(s.Name, c.Status, c.Reason)
			}
		}
	}
	// Output:
	// settled: true after 2 evaluations that changed something
	// root False MarkedForDeletion
	// child False ParentDeactivated
}
