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

// A message kept from the stored status (a deactivated Subscription's
// Ready and Active, the collector's CostsResolved) is redacted again: text
// someone else put there is hidden as text from elsewhere is, while the
// names the Subscription's reader sees (its target, its Offering's
// requirements) stay as written. Hiding a secret changes the message, so
// a write is due; the status, reason and lastTransitionTime stay.
func TestHeldMessages_RedactedAgainNamesKept(t *testing.T) {
	ended := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name                  string
		ready, active, costs  string
		wantReady, wantActive string
		wantCosts             string
		write                 bool
	}{
		{"EngineWordsUnchanged",
			"deactivated; the cause is on the Active condition", "target ConfigMap team-a/backup-10.0.0.7 (v1) was deleted", "status.costs resolved from the recorded charge rows",
			"deactivated; the cause is on the Active condition", "target ConfigMap team-a/backup-10.0.0.7 (v1) was deleted", "status.costs resolved from the recorded charge rows", false},
		{"RequirementNamedAsWritten",
			"ended", "required offering shop/db-10.0.0.7 not covered by an active subscription in the family", "",
			"ended", "required offering shop/db-10.0.0.7 not covered by an active subscription in the family", "", false},
		{"PlantedSecretsHidden",
			"ended: password=hunter2", "target team-a/backup-10.0.0.7 at 10.0.0.9:5432 (token ghp_16C7e42F292c6912E7710c838347Ae178B4a)",
			"rows from postgres://app:s3cret@db.prod.svc:5432/app",
			"ended: password=[secret]", "target team-a/backup-10.0.0.7 at [address] (token [secret])", "rows from [url]", true},
		{"NameNoOneSeesHidden",
			"ended", "target ConfigMap team-a/other-10.0.0.8 (v1) was deleted", "",
			"ended", "target ConfigMap team-a/other-[address] (v1) was deleted", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := st.New("team-a", "a", st.Offering("shop", "app"), st.Target("v1", "ConfigMap", "team-a", "backup-10.0.0.7"),
				st.Active(earlier, "u-team-a-a"), st.Deactivated(ended, subscription.ReasonTargetNotFound))
			s.Status.Conditions[0].Message, s.Status.Conditions[1].Message = tc.ready, tc.active
			if tc.costs != "" {
				s.Status.Conditions = append(s.Status.Conditions, metav1.Condition{Type: subscription.TypeCostsResolved,
					Status: metav1.ConditionTrue, Reason: string(subscription.ReasonFromDB), Message: tc.costs,
					ObservedGeneration: 1, LastTransitionTime: metav1.NewTime(ended)})
			}
			o := evaluate(subscription.Snapshot{Now: now, Subscriptions: []finopsv1.Subscription{s},
				Offerings: []finopsv1.Offering{st.ReadyOffering("shop", "app", finopsv1.Reference{Namespace: "shop", Name: "db-10.0.0.7"})}}).Subscriptions[0]
			for _, want := range []struct{ typ, msg string }{
				{subscription.TypeReady, tc.wantReady}, {subscription.TypeActive, tc.wantActive}, {subscription.TypeCostsResolved, tc.wantCosts},
			} {
				c := conditions.Find(o.Status.Conditions, want.typ)
				if want.msg == "" {
					assert.Nil(t, c, want.typ)
					continue
				}
				require.NotNil(t, c, want.typ)
				assert.Equal(t, want.msg, c.Message, want.typ)
				old := conditions.Find(s.Status.Conditions, want.typ)
				assert.Equal(t, old.Status, c.Status, want.typ)
				assert.Equal(t, old.Reason, c.Reason, want.typ)
				assert.True(t, c.LastTransitionTime.Equal(&old.LastTransitionTime), "%s: a new message does not move the time", want.typ)
			}
			assert.Equal(t, tc.write, o.Write, "a hidden secret is a change to write")
		})
	}
}
