package subscription_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/conditions/conditionstest"
	"github.com/condengine/condengine/subscription"
	st "github.com/condengine/condengine/subscription/subscriptiontest"
)

var (
	now     = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	earlier = time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
)

func outcome(t *testing.T, res subscription.Result, ns, name string) subscription.Outcome {
	t.Helper()
	for _, o := range res.Subscriptions {
		if o.Namespace == ns && o.Name == name {
			return o
		}
	}
	t.Fatalf("no outcome for %s/%s", ns, name)
	return subscription.Outcome{}
}

func reason(o subscription.Outcome, typ string) string {
	if c := conditions.Find(o.Status.Conditions, typ); c != nil {
		return string(c.Status) + " " + c.Reason
	}
	return ""
}

// evaluate is Evaluate for snapshots whose Now is set; a refusal fails
// the test loudly.
func evaluate(s subscription.Snapshot) subscription.Result {
	r, err := subscription.Evaluate(s)
	if err != nil {
		panic(err)
	}
	return r
}

func TestEvaluate_EmptySnapshot(t *testing.T) {
	res := evaluate(subscription.Snapshot{Now: now})
	assert.Empty(t, res.Subscriptions)
	assert.Empty(t, res.Errors)
}

func TestEvaluate_ZeroNowIsAnError(t *testing.T) {
	// Without the refusal, activatedAt would read 0001-01-01 for ever.
	res, err := subscription.Evaluate(subscription.Snapshot{
		Offerings:     []finopsv1.Offering{st.ReadyOffering("shop", "base")},
		Subscriptions: []finopsv1.Subscription{st.New("team-a", "acme")},
	})
	require.ErrorIs(t, err, conditions.ErrZeroNow)
	assert.Empty(t, res.Subscriptions)
}

func TestEvaluate_DuplicateKeyIsSnapshotErrorAndNotEvaluated(t *testing.T) {
	res := evaluate(subscription.Snapshot{Now: now,
		Offerings:     []finopsv1.Offering{st.ReadyOffering("shop", "base")},
		Subscriptions: []finopsv1.Subscription{st.New("a", "x"), st.New("a", "x", st.UID("other")), st.New("a", "y")}})
	require.Len(t, res.Subscriptions, 1)
	assert.Equal(t, "y", res.Subscriptions[0].Name)
	require.Len(t, res.Errors, 1)
	assert.Contains(t, res.Errors[0], "a/x is listed 2 times")
}

func TestEvaluate_DuplicateOfferingIsAFailedRead(t *testing.T) {
	res := evaluate(subscription.Snapshot{Now: now,
		Offerings:     []finopsv1.Offering{st.ReadyOffering("shop", "base"), st.ReadyOffering("shop", "base")},
		Subscriptions: []finopsv1.Subscription{st.New("a", "x")}})
	o := outcome(t, res, "a", "x")
	assert.Equal(t, "False ValidationError", reason(o, "Ready"))
	assert.True(t, o.Retry)
	assert.True(t, now.Add(conditions.RetryDelay).Equal(o.RetryAt), "a retry after the evaluation, never at its own Now")
	assert.NotEmpty(t, res.Errors)
}

func TestEvaluate_TransientOnlyForFailedReads(t *testing.T) {
	snap := subscription.Snapshot{Now: now,
		Offerings: []finopsv1.Offering{st.ReadyOffering("shop", "base")},
		Subscriptions: []finopsv1.Subscription{
			st.New("a", "fails", st.Offering("shop", "broken")),
			st.New("a", "missing", st.Offering("shop", "missing")),
		},
		Failures: []subscription.ObjectRef{{Kind: "Offering", Namespace: "shop", Name: "broken"}}}
	res := evaluate(snap)
	assert.True(t, outcome(t, res, "a", "fails").Retry)
	assert.False(t, outcome(t, res, "a", "missing").Retry, "not found waits for a watch event, not a retry")
	assert.True(t, outcome(t, res, "a", "missing").RetryAt.IsZero())
}

func TestEvaluate_FailureWithAPIVersionMatchesOnlyThatVersion(t *testing.T) {
	target := st.Target("apps/v1", "Deployment", "a", "web")
	snap := subscription.Snapshot{Now: now,
		Offerings:     []finopsv1.Offering{st.ReadyOffering("shop", "base")},
		Objects:       []subscription.ObjectRef{{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "a", Name: "web"}},
		Subscriptions: []finopsv1.Subscription{st.New("a", "x", target)},
		Failures:      []subscription.ObjectRef{{APIVersion: "apps/v1beta2", Kind: "Deployment", Namespace: "a", Name: "web"}}}
	assert.Equal(t, "True ActivationSucceeded", reason(outcome(t, evaluate(snap), "a", "x"), "Ready"))
	snap.Failures[0].APIVersion = ""
	assert.Equal(t, "False ValidationError", reason(outcome(t, evaluate(snap), "a", "x"), "Ready"))
}

func TestEvaluate_StaleSnapshotWritesNothing(t *testing.T) {
	s := st.New("a", "x", st.Generation(3), st.Active(earlier, "u-a-x"))
	s.Generation = 2 // the cache lags: our conditions describe generation 3
	res := evaluate(subscription.Snapshot{Now: now,
		Offerings: []finopsv1.Offering{st.ReadyOffering("shop", "missing-on-purpose")}, Subscriptions: []finopsv1.Subscription{s}})
	o := outcome(t, res, "a", "x")
	assert.Equal(t, conditions.SkipStale, o.Skip)
	assert.False(t, o.Write)
	assert.Equal(t, s.Status, o.Status)
}

func TestEvaluate_OtherWritersConditionsKeptAfterOurs(t *testing.T) {
	s := st.New("a", "x")
	s.Status.Conditions = []metav1.Condition{{Type: "example.com/Audited", Status: "True", Reason: "Done", LastTransitionTime: metav1.NewTime(earlier)}}
	res := evaluate(subscription.Snapshot{Now: now,
		Offerings: []finopsv1.Offering{st.ReadyOffering("shop", "base")}, Subscriptions: []finopsv1.Subscription{s}})
	var types []string
	for _, c := range outcome(t, res, "a", "x").Status.Conditions {
		types = append(types, c.Type)
	}
	assert.Equal(t, []string{"Ready", "Active", "example.com/Audited"}, types)
}

func TestEvaluate_DoesNotModifyTheSnapshot(t *testing.T) {
	snap := subscription.Snapshot{Now: now,
		Offerings: []finopsv1.Offering{st.ReadyOffering("shop", "base")},
		Subscriptions: []finopsv1.Subscription{
			st.New("a", "root", st.Active(earlier, "u-a-root"), st.Deleting(earlier)),
			st.New("a", "kid", st.Parent("a", "root"), st.Active(earlier, "u-a-root")),
		},
		Collection: &subscription.Collection{ScheduledHour: now, Results: []subscription.CollectionResult{
			{Subscription: finopsv1.Reference{Namespace: "a", Name: "kid"}, Buckets: 3, Source: subscription.SourceDB}}}}
	before := fmt.Sprintf("%#v", snap.Subscriptions)
	_ = evaluate(snap)
	assert.Equal(t, before, fmt.Sprintf("%#v", snap.Subscriptions))
}

// The own-text rule, for every kind: the target reference is the
// Subscription's own text, shown as written even where it looks like an
// address; the message still obeys the line and length rule.
func TestEvaluate_MessagesQuoteOwnTargetWhole(t *testing.T) {
	s := st.New("a", "x", st.Target("https://evil.example.com:8443/v1", "Thing", "a", "t"))
	res := evaluate(subscription.Snapshot{Now: now,
		Offerings: []finopsv1.Offering{st.ReadyOffering("shop", "base")}, Subscriptions: []finopsv1.Subscription{s}})
	c := conditions.Find(outcome(t, res, "a", "x").Status.Conditions, "Ready")
	require.NotNil(t, c)
	assert.Equal(t, "TargetNotFound", c.Reason)
	assert.Equal(t, "target gate: target Thing a/t (https://evil.example.com:8443/v1) not found", c.Message)
	assert.Empty(t, conditions.MessageProblem(c.Message))
}

func TestEvaluate_NegativeGenerationWrittenAsZero(t *testing.T) {
	s := st.New("a", "x", st.Generation(-4))
	res := evaluate(subscription.Snapshot{Now: now,
		Offerings: []finopsv1.Offering{st.ReadyOffering("shop", "base")}, Subscriptions: []finopsv1.Subscription{s}})
	for _, c := range outcome(t, res, "a", "x").Status.Conditions {
		assert.Equal(t, int64(0), c.ObservedGeneration)
	}
}

// TestParentLoss_CascadeMovesOneLevelPerEvaluation deletes the root of a
// chain under Deactivate: each evaluation ends one more level, and the
// settled family is entirely deactivated.
func TestParentLoss_CascadeMovesOneLevelPerEvaluation(t *testing.T) {
	const depth = 6
	subs := []finopsv1.Subscription{st.New("a", "l0", st.Active(earlier, "u-a-l0"), st.Deleting(now))}
	for i := 1; i < depth; i++ {
		subs = append(subs, st.New("a", fmt.Sprintf("l%d", i), st.Parent("a", fmt.Sprintf("l%d", i-1)), st.Active(earlier, "u-a-l0")))
	}
	snap := subscription.Snapshot{Now: now, Offerings: []finopsv1.Offering{st.ReadyOffering("shop", "base")}, Subscriptions: subs}
	for pass := 0; pass < depth; pass++ {
		res := evaluate(snap)
		for i := 0; i < depth; i++ {
			want := "True ActivationSucceeded"
			switch {
			case i == 0:
				want = "False MarkedForDeletion"
			case i <= pass:
				want = "False ParentDeactivated"
			}
			assert.Equal(t, want, reason(outcome(t, res, "a", fmt.Sprintf("l%d", i)), "Active"), "pass %d level %d", pass, i)
		}
		snap.Subscriptions = subscription.Apply(snap.Subscriptions, res)
	}
	_, rounds, err := subscription.Settle(snap, 3)
	assert.NoError(t, err)
	assert.Equal(t, 0, rounds, "already settled")
}

func TestFamily_LongParentLoopDoesNotHang(t *testing.T) {
	const n = 10_000
	subs := make([]finopsv1.Subscription, n)
	for i := range subs {
		subs[i] = st.New("a", fmt.Sprintf("s%05d", i), st.Parent("a", fmt.Sprintf("s%05d", (i+1)%n)))
	}
	res := evaluate(subscription.Snapshot{Now: now, Offerings: []finopsv1.Offering{st.ReadyOffering("shop", "base")}, Subscriptions: subs})
	for _, o := range res.Subscriptions {
		if r := reason(o, "Ready"); r != "False ParentSubscriptionNotReady" {
			t.Fatalf("%s: %s", o.Name, r)
		}
	}
}

func TestEvaluate_OutcomesSortedByNamespaceThenName(t *testing.T) {
	res := evaluate(subscription.Snapshot{Now: now, Subscriptions: []finopsv1.Subscription{
		st.New("b", "a"), st.New("a", "b"), st.New("a", "a")}})
	var got []string
	for _, o := range res.Subscriptions {
		got = append(got, o.Namespace+"/"+o.Name)
	}
	assert.Equal(t, "a/a a/b b/a", strings.Join(got, " "))
}

func TestSettle_DeletedFamilyDisappearsAfterCollection(t *testing.T) {
	snap := subscription.Snapshot{Now: now, Offerings: []finopsv1.Offering{st.ReadyOffering("shop", "base")},
		Subscriptions: []finopsv1.Subscription{
			st.New("a", "root", st.Active(earlier, "u-a-root"), st.Deleting(earlier)),
			st.New("a", "kid", st.Parent("a", "root"), st.Active(earlier, "u-a-root"), st.Deleting(earlier)),
		},
		Collection: &subscription.Collection{ScheduledHour: now.Add(2 * time.Hour)}}
	// A run every round (Settle would hold the run to the first).
	for round := 0; round < 5 && len(snap.Subscriptions) > 0; round++ {
		snap.Subscriptions = subscription.Apply(snap.Subscriptions, evaluate(snap))
	}
	assert.Empty(t, snap.Subscriptions, "both finalizers released once deactivation is recorded")
}

// Every field of the shared outcome, on each path a Subscription takes.
// (The finalizer's release is covered with the collection run.)
func TestOutcome_EveryFieldFilled(t *testing.T) {
	audited := metav1.Condition{Type: "example.com/Audited", Status: metav1.ConditionTrue, Reason: "ByOtherTool",
		ObservedGeneration: 1, LastTransitionTime: metav1.NewTime(earlier)}
	withAudit := func(s finopsv1.Subscription) finopsv1.Subscription {
		s.Status.Conditions = append(append([]metav1.Condition(nil), s.Status.Conditions...), audited)
		return s
	}
	base := []finopsv1.Offering{st.ReadyOffering("shop", "base")}
	fresh := withAudit(st.New("a", "fresh"))
	settled := subscription.Apply([]finopsv1.Subscription{fresh}, evaluate(subscription.Snapshot{Now: now, Offerings: base,
		Subscriptions: []finopsv1.Subscription{fresh}}))[0]
	stale := withAudit(st.New("a", "stale", st.Generation(3), st.Active(earlier, "u-a-stale")))
	stale.Generation = 2
	for _, tc := range []struct {
		name     string
		sub      finopsv1.Subscription
		failures []subscription.ObjectRef
		write    bool
		skip     conditions.Skip
		retry    bool
		owned    []string
	}{
		{name: "activates", sub: fresh, write: true, owned: []string{subscription.TypeReady, subscription.TypeActive}},
		{name: "settled", sub: settled, skip: conditions.SkipUnchanged, owned: []string{subscription.TypeReady, subscription.TypeActive}},
		{name: "read fails: retried", sub: fresh, failures: []subscription.ObjectRef{{Kind: "Offering", Namespace: "shop", Name: "base"}},
			write: true, retry: true, owned: []string{subscription.TypeReady}},
		{name: "stale", sub: stale, skip: conditions.SkipStale, owned: []string{subscription.TypeReady, subscription.TypeActive}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := evaluate(subscription.Snapshot{Now: now, Offerings: base,
				Subscriptions: []finopsv1.Subscription{tc.sub}, Failures: tc.failures})
			o := outcome(t, res, tc.sub.Namespace, tc.sub.Name)
			want := conditionstest.Expected{Kind: finopsv1.KindSubscription, Object: tc.sub.ObjectMeta, Write: tc.write, Skip: tc.skip,
				Finalizer: conditions.FinalizerKeep, Retry: tc.retry, Owned: tc.owned}
			if tc.retry {
				want.RetryAt = now.Add(conditions.RetryDelay)
			}
			conditionstest.CheckOutcome(t, want, &o.Outcome)
			assert.Contains(t, o.Conditions, audited)
			assert.Equal(t, o.Conditions, o.Status.Conditions)
		})
	}
}

// An Offering whose subscription fee period is zero reads as not ready
// whatever its status says (outranking the status the snapshot holds): a
// new Subscription is held at the Offering gate and nothing is stamped;
// an active one keeps billing, as under any Offering not ready, and no
// fee is computed on the zero period.
func TestGates_ZeroFeeOfferingIsNotReadyWhateverItsStatus(t *testing.T) {
	off := st.Fee(st.ReadyOffering("shop", "base"), 40_000_000, "0h", finopsv1.AlignActivatedAt, 0)
	require.Equal(t, metav1.ConditionTrue, off.Status.Ready, "the snapshot still reads it ready")
	fresh := st.New("team-a", "fresh", st.Offering("shop", "base"))
	active := st.New("team-a", "active", st.Offering("shop", "base"), st.Active(earlier, "u-team-a-active"))
	res := evaluate(subscription.Snapshot{Now: now, Offerings: []finopsv1.Offering{off},
		Subscriptions: []finopsv1.Subscription{fresh, active},
		Collection:    &subscription.Collection{ScheduledHour: now, Results: []subscription.CollectionResult{{Subscription: active.Key(), Buckets: 3, Source: subscription.SourceDB}}}})

	f := outcome(t, res, "team-a", "fresh")
	assert.Equal(t, "False OfferingNotReady", reason(f, subscription.TypeReady))
	assert.Contains(t, conditions.Find(f.Status.Conditions, subscription.TypeReady).Message, "subscription fee period is zero")
	assert.Nil(t, f.Status.ActivatedAt)
	assert.Empty(t, f.Status.CompatibilityRoot)

	a := outcome(t, res, "team-a", "active")
	assert.Equal(t, "False OfferingNotReady", reason(a, subscription.TypeReady))
	assert.Equal(t, "True ActivationSucceeded", reason(a, subscription.TypeActive), "billing stays open")
	assert.Empty(t, a.Status.Costs, "no fee arithmetic on a zero period")
	assert.NotEmpty(t, a.Errors)
}
