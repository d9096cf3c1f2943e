package subscriptiontest_test

import (
	"fmt"
	"time"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/subscription"
	st "github.com/condengine/condengine/subscription/subscriptiontest"
)

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
	settled, passes, ok := st.Settle(snap, 10)
	fmt.Println("settled:", ok, "after", passes, "evaluations")
	for _, s := range settled.Subscriptions {
		for _, c := range s.Status.Conditions {
			if c.Type == subscription.TypeActive {
				fmt.Println(s.Name, c.Status, c.Reason)
			}
		}
	}
	// Output:
	// settled: true after 3 evaluations
	// root False MarkedForDeletion
	// child False ParentDeactivated
}
