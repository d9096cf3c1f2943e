package subscriptiontest_test

import (
	"fmt"
	"time"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/subscription"
	st "github.com/condengine/condengine/subscription/subscriptiontest"
)

// New builds a Subscription from options; Active gives it the status of
// one already billing.
func ExampleNew() {
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	s := st.New("team-a", "child", st.Parent("team-a", "root"), st.Active(now, "u-team-a-root"))
	fmt.Println(s.Namespace+"/"+s.Name, s.UID, s.Spec.OfferingRef, s.Spec.Parent.SubscriptionRef)
	fmt.Println(s.Status.Ready, s.Status.CompatibilityRoot, len(s.Status.Conditions))
	res, err := subscription.Evaluate(subscription.Snapshot{Now: now, Subscriptions: []finopsv1.Subscription{s},
		Offerings: []finopsv1.Offering{st.ReadyOffering("shop", "base")}})
	fmt.Println(err, res.Subscriptions[0].Status.Conditions[1].Reason)
	// Output:
	// team-a/child u-team-a-child shop/base team-a/root
	// True u-team-a-root 2
	// <nil> ParentDeactivated
}
