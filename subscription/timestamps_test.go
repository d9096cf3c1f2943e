package subscription_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/subscription"
	st "github.com/condengine/condengine/subscription/subscriptiontest"
)

// A status time at the zero instant would be written back as null: the
// Subscription is left out with an error naming the field, and its
// relatives still see it.
func TestTimestamps_ZeroStatusTimeIsRefused(t *testing.T) {
	for _, tc := range []struct {
		name       string
		set        func(*finopsv1.SubscriptionStatus)
		field      string
		wantActive string // the child's Active: the parent read as the snapshot holds it
	}{
		{"ActivatedAt", func(s *finopsv1.SubscriptionStatus) { s.ActivatedAt = &metav1.Time{} }, "status.activatedAt",
			"True ActivationSucceeded"},
		{"DeactivatedAt", func(s *finopsv1.SubscriptionStatus) { s.DeactivatedAt = &metav1.Time{} }, "status.deactivatedAt",
			"False ParentDeactivated"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parent := st.New("team-a", "parent", st.Active(earlier, "u-team-a-parent"))
			tc.set(&parent.Status)
			child := st.New("team-a", "child", st.Parent("team-a", "parent"), st.Active(earlier, "u-team-a-parent"))
			res := evaluate(subscription.Snapshot{Now: now, Subscriptions: []finopsv1.Subscription{parent, child},
				Offerings: []finopsv1.Offering{st.ReadyOffering("shop", "base")}})
			require.Len(t, res.Errors, 1)
			assert.Contains(t, res.Errors[0], "team-a/parent")
			assert.Contains(t, res.Errors[0], tc.field)
			require.Len(t, res.Subscriptions, 1)
			o := res.Subscriptions[0]
			assert.Equal(t, "child", o.Name)
			assert.Equal(t, tc.wantActive, reason(o, subscription.TypeActive))
		})
	}
}

// A run whose month bucket would start at the zero time or end in the
// year 10000 is ignored with an error; the months inside are written.
func TestTimestamps_UnwritableRunIsIgnored(t *testing.T) {
	for _, tc := range []struct {
		scheduled string
		ignored   bool
	}{
		{"9999-12-31T23:00:00Z", true},
		{"9999-12-01T00:00:00Z", true},
		{"9999-11-30T23:00:00Z", false},
		{"0001-01-31T23:00:00Z", true},
		{"0001-02-01T00:00:00Z", false},
	} {
		t.Run(tc.scheduled, func(t *testing.T) {
			at, err := time.Parse(time.RFC3339, tc.scheduled)
			require.NoError(t, err)
			s := st.New("team-a", "acme", st.Active(time.Date(1, 1, 1, 0, 0, 1, 0, time.UTC), "u-team-a-acme"))
			off := st.Fee(st.ReadyOffering("shop", "base"), 1000, "1h", "ActivatedAt", 0)
			res := evaluate(subscription.Snapshot{Now: at, Subscriptions: []finopsv1.Subscription{s},
				Offerings: []finopsv1.Offering{off},
				Collection: &subscription.Collection{ScheduledHour: at, Results: []subscription.CollectionResult{
					{Subscription: s.Key(), Buckets: 3, Source: subscription.SourceDB}}}})
			require.Len(t, res.Subscriptions, 1)
			costs := res.Subscriptions[0].Status.Costs
			if tc.ignored {
				require.Len(t, res.Errors, 1)
				assert.Contains(t, res.Errors[0], "is ignored")
				assert.Empty(t, costs)
				assert.Empty(t, reason(res.Subscriptions[0], subscription.TypeCostsResolved))
				return
			}
			assert.Empty(t, res.Errors)
			require.Len(t, costs, 3)
			for _, b := range costs {
				for _, ts := range []metav1.Time{b.Start, b.EndExclusive} {
					text, err := ts.MarshalJSON()
					require.NoError(t, err)
					_, err = time.Parse(time.RFC3339, strings.Trim(string(text), `"`))
					assert.NoError(t, err, "%s bucket bound %s", b.Granularity, text)
				}
			}
		})
	}
}
