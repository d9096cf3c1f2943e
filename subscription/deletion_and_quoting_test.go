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

// A deactivated Subscription whose spec moves keeps each condition's
// status, reason, message and lastTransitionTime; only
// observedGeneration follows (FinOps rule 27).
func TestDeactivated_GenerationMoveKeepsEveryCondition(t *testing.T) {
	ended := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name                  string
		readyMsg, activeMsg   string
		wantReady, wantActive string
	}{
		{"EngineMessages", "deactivated; the cause is on the Active condition", "target ConfigMap team-a/x (v1) was deleted",
			"deactivated; the cause is on the Active condition", "target ConfigMap team-a/x (v1) was deleted"},
		{"OwnNameLikeAnAddress", "ended", "target ConfigMap team-a/backup-10.0.0.7 (v1) was deleted",
			"ended", "target ConfigMap team-a/backup-10.0.0.7 (v1) was deleted"},
		{"BrokenByHandIsFitted", "two\nlines", "", "two lines", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The target its spec names: a held message shows the names
			// the reader sees as written.
			s := st.New("team-a", "a", st.Target("v1", "ConfigMap", "team-a", "backup-10.0.0.7"),
				st.Active(earlier, "u-team-a-a"), st.Deactivated(ended, subscription.ReasonTargetNotFound))
			s.Status.Conditions[0].Message, s.Status.Conditions[1].Message = tc.readyMsg, tc.activeMsg
			s.Generation = 5
			o := evaluate(subscription.Snapshot{Now: now, Subscriptions: []finopsv1.Subscription{s},
				Offerings: []finopsv1.Offering{st.ReadyOffering("shop", "base")}}).Subscriptions[0]
			require.Len(t, o.Status.Conditions, 2)
			for i, want := range []string{tc.wantReady, tc.wantActive} {
				c := o.Status.Conditions[i]
				assert.Equal(t, want, c.Message, c.Type)
				assert.Equal(t, int64(5), c.ObservedGeneration, c.Type)
				assert.True(t, c.LastTransitionTime.Time.Equal(ended), c.Type)
				assert.Equal(t, s.Status.Conditions[i].Reason, c.Reason, c.Type)
				assert.Equal(t, s.Status.Conditions[i].Status, c.Status, c.Type)
			}
		})
	}
}

// A new Subscription takes its direct parent's stamped root; an
// unstamped parent leaves the chain incomplete (FinOps rule 28).
func TestRoot_InheritedFromTheDirectParentOnly(t *testing.T) {
	orphan := st.New("team-a", "orphan", st.Parent("team-a", "gone"), st.Policy(finopsv1.PolicyOrphan), st.Active(earlier, "u-gone"))
	legacy := st.New("team-a", "legacy", st.Active(earlier, ""))
	grand := st.New("team-a", "grand", st.Active(earlier, "u-team-a-grand"))
	middle := st.New("team-a", "middle", st.Parent("team-a", "grand"), st.Active(earlier, ""))
	for _, tc := range []struct {
		name     string
		parent   finopsv1.Subscription
		extra    []finopsv1.Subscription
		wantRoot string
		want     string
	}{
		{"OrphanedParentsStamp", orphan, nil, "u-gone", "True ActivationSucceeded"},
		{"UnstampedRootParent", legacy, nil, "", "False ParentSubscriptionNotReady"},
		{"UnstampedParentOfStampedGrandparent", middle, []finopsv1.Subscription{grand}, "", "False ParentSubscriptionNotReady"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			child := st.New("team-a", "child", st.Parent("team-a", tc.parent.Name))
			subs := append([]finopsv1.Subscription{child, tc.parent}, tc.extra...)
			res := evaluate(subscription.Snapshot{Now: now, Subscriptions: subs,
				Offerings: []finopsv1.Offering{st.ReadyOffering("shop", "base")}})
			o := outcome(t, res, "team-a", "child")
			assert.Equal(t, tc.want, reason(o, subscription.TypeReady))
			assert.Equal(t, tc.wantRoot, o.Status.CompatibilityRoot)
		})
	}
}

// No collection run releases the finalizer of a Subscription that never
// activated: runs select by activatedAt (FinOps rule 32). One that did
// activate and is settled is released by the same run.
func TestCollection_NeverActivatedKeepsItsFinalizer(t *testing.T) {
	deleted := time.Date(2026, 11, 30, 8, 30, 0, 0, time.UTC)
	never := st.New("team-a", "never", st.Offering("shop", "missing"), st.Deleting(deleted))
	at := metav1.NewTime(deleted)
	never.Status.DeactivatedAt = &at
	billed := st.New("team-a", "billed", st.Active(earlier, "u-team-a-billed"), st.Deactivated(deleted, subscription.ReasonMarkedForDeletion), st.Deleting(deleted))
	res := evaluate(subscription.Snapshot{Now: now, Subscriptions: []finopsv1.Subscription{never, billed},
		Offerings:  []finopsv1.Offering{st.ReadyOffering("shop", "base")},
		Collection: &subscription.Collection{ScheduledHour: now}})
	assert.Equal(t, conditions.FinalizerKeep, outcome(t, res, "team-a", "never").Finalizer)
	assert.Equal(t, conditions.FinalizerRemove, outcome(t, res, "team-a", "billed").Finalizer)
	deleting := subscription.Vocabulary.Types()[subscription.Vocabulary.Index(subscription.TypeDeleting)]
	assert.Contains(t, deleting.Meaning, subscription.HazardNeverActivated)
}
