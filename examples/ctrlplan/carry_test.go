package ctrlplan_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/examples/ctrlplan"
	"github.com/condengine/condengine/subscription"
	st "github.com/condengine/condengine/subscription/subscriptiontest"
	"github.com/condengine/condengine/writeplan"
)

const manager = "agent-kourier"

// The writers of the tests: one field manager, two kinds.
var (
	bindingWrites      = writeplan.Options{FieldManager: manager, Kind: writeplan.Kind{APIVersion: akv1.APIVersion, Kind: akv1.KindBinding}}
	subscriptionWrites = writeplan.Options{FieldManager: manager,
		Kind: writeplan.Kind{APIVersion: finopsv1.APIVersion, Kind: finopsv1.KindSubscription, Finalizer: finopsv1.SubscriptionFinalizer}}
)

var (
	now = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	ltt = metav1.NewTime(now.Add(-time.Hour))
)

func cond(typ string, status metav1.ConditionStatus, reason string) metav1.Condition {
	return metav1.Condition{Type: typ, Status: status, Reason: reason, Message: typ + " " + reason, ObservedGeneration: 1, LastTransitionTime: ltt}
}

// write plans the outcome owned for b (ours are the given conditions; the
// others' are kept as read) and carries it out, optionally only the steps
// listed.
func write(t *testing.T, c client.Client, b *akv1.Binding, owned []metav1.Condition, only ...writeplan.Step) {
	t.Helper()
	require.NoError(t, c.Get(context.Background(), client.ObjectKeyFromObject(b), b))
	all := append([]metav1.Condition(nil), owned...)
	for _, x := range b.Status.Conditions {
		if x.Type == "Audited" {
			all = append(all, x)
		}
	}
	o := &conditions.Outcome{Kind: akv1.KindBinding, Namespace: b.Namespace, Name: b.Name, UID: b.UID, Conditions: all, Owned: owned, Write: true}
	p, err := writeplan.For(b, o, akv1.BindingStatus{Conditions: owned}, bindingWrites)
	require.NoError(t, err)
	if len(only) > 0 {
		var keep []writeplan.Request
		for _, r := range p.Requests {
			for _, s := range only {
				if r.Step == s {
					keep = append(keep, r)
				}
			}
		}
		p.Requests = keep
	}
	require.NoError(t, ctrlplan.Carry(context.Background(), c, b, p))
}

func types(b *akv1.Binding) map[string]metav1.Condition {
	out := map[string]metav1.Condition{}
	for _, c := range b.Status.Conditions {
		out[c.Type] = c
	}
	return out
}

// TestCarry_CoOwnedConditionIsRemoved is the first defect on
// controller-runtime's fake client: an earlier writer's update made our
// BackendReachable, so it co-owns it after our apply; the Binding stops
// being served, and the plan's write removes BackendReachable and
// ChannelJoined while the other manager's own condition stays. Applying
// only the owned conditions, as before, leaves the stale one behind.
func TestCarry_CoOwnedConditionIsRemoved(t *testing.T) {
	ctx := context.Background()
	served := []metav1.Condition{cond("Ready", "True", "OK"), cond("BackendReachable", "True", "OK"), cond("ChannelJoined", "True", "OK")}
	notServed := []metav1.Condition{cond("Ready", "False", "NotServed")}
	for _, tc := range []struct {
		name      string
		only      []writeplan.Step
		wantStale bool
	}{
		{"the whole plan", nil, false},
		{"the apply alone", []writeplan.Step{writeplan.StepApplyStatus}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := ctrlplan.NewFakeClientBuilder().Build()
			b := &akv1.Binding{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "support"}}
			require.NoError(t, c.Create(ctx, b, client.FieldOwner("e2e-user")))
			// An earlier broker version wrote BackendReachable with an
			// update, beside an auditor's condition; then we apply ours.
			b.Status.Conditions = []metav1.Condition{cond("BackendReachable", "True", "OK"), cond("Audited", "True", "Checked")}
			require.NoError(t, c.Status().Update(ctx, b, client.FieldOwner("agent-kourier-v0")))
			write(t, c, b, served)

			write(t, c, b, notServed, tc.only...)
			require.NoError(t, c.Get(ctx, client.ObjectKeyFromObject(b), b))
			got := types(b)
			assert.Equal(t, metav1.ConditionFalse, got["Ready"].Status)
			assert.Contains(t, got, "Audited", "the other writer's condition stays")
			assert.NotContains(t, got, "ChannelJoined", "ours alone: the apply drops it")
			_, stale := got["BackendReachable"]
			assert.Equal(t, tc.wantStale, stale, "co-owned BackendReachable left standing")
		})
	}
}

// TestCarry_AWriteBetweenTwoRequestsStopsThePlan: another manager
// writes right after the plan's removal; the apply behind it is guarded
// by what the removal answered, so it fails with a conflict instead of
// landing on a status it was not computed from.
func TestCarry_AWriteBetweenTwoRequestsStopsThePlan(t *testing.T) {
	ctx := context.Background()
	var between bool
	c := ctrlplan.NewFakeClientBuilder().WithInterceptorFuncs(interceptor.Funcs{
		SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
			if err := c.SubResource(sub).Patch(ctx, obj, patch, opts...); err != nil || !between {
				return err
			}
			other := &akv1.Binding{}
			if err := c.Get(ctx, client.ObjectKeyFromObject(obj), other); err != nil {
				return err
			}
			other.Status.Conditions = append(other.Status.Conditions, cond("Reviewed", "True", "Checked"))
			return c.Status().Update(ctx, other, client.FieldOwner("auditor"))
		},
	}).Build()
	b := &akv1.Binding{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "support"}}
	require.NoError(t, c.Create(ctx, b, client.FieldOwner("e2e-user")))
	b.Status.Conditions = []metav1.Condition{cond("BackendReachable", "True", "OK")}
	require.NoError(t, c.Status().Update(ctx, b, client.FieldOwner("agent-kourier-v0")))
	write(t, c, b, []metav1.Condition{cond("Ready", "True", "OK"), cond("BackendReachable", "True", "OK")})

	require.NoError(t, c.Get(ctx, client.ObjectKeyFromObject(b), b))
	owned := []metav1.Condition{cond("Ready", "False", "NotServed")}
	o := &conditions.Outcome{Kind: akv1.KindBinding, Namespace: b.Namespace, Name: b.Name, UID: b.UID, Conditions: owned, Owned: owned, Write: true}
	p, err := writeplan.For(b, o, akv1.BindingStatus{Conditions: owned}, bindingWrites)
	require.NoError(t, err)
	require.Equal(t, writeplan.StepRemoveConditions, p.Requests[0].Step)
	between = true
	err = ctrlplan.Carry(ctx, c, b, p)
	require.True(t, apierrors.IsConflict(err), "the apply after another write: %v", err)
	require.NoError(t, c.Get(ctx, client.ObjectKeyFromObject(b), b))
	assert.Equal(t, metav1.ConditionTrue, types(b)["Ready"].Status, "the apply did not land")
}

// TestCarry_StatusBeforeFinalizer: the plan writes a deleted
// Subscription's status, then releases its finalizer, which deletes it.
// The other order loses the status write (or, on the fake client,
// brings the object back).
func TestCarry_StatusBeforeFinalizer(t *testing.T) {
	ctx := context.Background()
	for _, reversed := range []bool{false, true} {
		c := ctrlplan.NewFakeClientBuilder().Build()
		s := &finopsv1.Subscription{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "plan", Finalizers: []string{finopsv1.SubscriptionFinalizer}}}
		require.NoError(t, c.Create(ctx, s))
		require.NoError(t, c.Delete(ctx, s))
		require.NoError(t, c.Get(ctx, client.ObjectKeyFromObject(s), s))
		require.NotNil(t, s.DeletionTimestamp)

		deleting := []metav1.Condition{cond("Deleting", "True", "Deleted")}
		o := &conditions.Outcome{Kind: finopsv1.KindSubscription, Namespace: s.Namespace, Name: s.Name, UID: s.UID,
			Conditions: deleting, Owned: deleting, Write: true, Finalizer: conditions.FinalizerRemove}
		p, err := writeplan.For(s, o, finopsv1.SubscriptionStatus{}, subscriptionWrites)
		require.NoError(t, err)
		require.Len(t, p.Requests, 2)
		require.Equal(t, []writeplan.Step{writeplan.StepApplyStatus, writeplan.StepRemoveFinalizer}, []writeplan.Step{p.Requests[0].Step, p.Requests[1].Step})
		if reversed {
			p.Requests[0], p.Requests[1] = p.Requests[1], p.Requests[0]
		}
		err = ctrlplan.Carry(ctx, c, s, p)
		if reversed {
			// The release deleted the object: the status write then fails,
			// or (the fake client) applies a new object into existence.
			back := c.Get(ctx, client.ObjectKeyFromObject(s), &finopsv1.Subscription{})
			require.True(t, apierrors.IsNotFound(err) || back == nil, "the status write after the release: %v", err)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, "Deleting", s.Status.Conditions[0].Type, "the status was stored before the object went")
		assert.True(t, apierrors.IsNotFound(c.Get(ctx, client.ObjectKeyFromObject(s), s)))
	}
}

// TestRequeueAfter_IsARequeueForControllerRuntime: a Subscription whose
// read failed is retried, and the answer handed to controller-runtime is
// a requeue (a zero Result is "done, wait for an event").
func TestRequeueAfter_IsARequeueForControllerRuntime(t *testing.T) {
	res, err := subscription.Evaluate(subscription.Snapshot{Now: now,
		Offerings:     []finopsv1.Offering{st.ReadyOffering("shop", "base"), st.ReadyOffering("shop", "base")},
		Subscriptions: []finopsv1.Subscription{st.New("a", "x")}})
	require.NoError(t, err)
	require.Len(t, res.Subscriptions, 1)
	o := res.Subscriptions[0]
	require.True(t, o.Retry)
	r := reconcile.Result{RequeueAfter: o.RequeueAfter(now)}
	assert.False(t, r.IsZero(), "controller-runtime would not requeue")
	assert.Positive(t, r.RequeueAfter)
	// The host's clock has run past RetryAt: still a requeue.
	r = reconcile.Result{RequeueAfter: o.RequeueAfter(o.RetryAt.Add(time.Minute))}
	assert.False(t, r.IsZero())
}

// TestCarry_AClientThatDoesNotKnowOurKinds: a host's client built with
// client-go's scheme alone cannot name a typed object of ours; Carry
// still adds a finalizer and writes status through it.
func TestCarry_AClientThatDoesNotKnowOurKinds(t *testing.T) {
	ctx := context.Background()
	store := ctrlplan.NewFakeClientBuilder().Build()
	typedOnly := func(obj client.Object) error {
		if _, ok := obj.(*unstructured.Unstructured); !ok {
			return fmt.Errorf("no kind is registered for the type %T", obj)
		}
		return nil
	}
	c := interceptor.NewClient(store, interceptor.Funcs{
		Patch: func(ctx context.Context, c client.WithWatch, obj client.Object, p client.Patch, opts ...client.PatchOption) error {
			if err := typedOnly(obj); err != nil {
				return err
			}
			return c.Patch(ctx, obj, p, opts...)
		},
		SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, p client.Patch, opts ...client.SubResourcePatchOption) error {
			if err := typedOnly(obj); err != nil {
				return err
			}
			return c.SubResource(sub).Patch(ctx, obj, p, opts...)
		},
	})
	s := &finopsv1.Subscription{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "plan"}}
	require.NoError(t, store.Create(ctx, s))
	ready := []metav1.Condition{cond("Ready", "True", "ActivationSucceeded")}
	o := &conditions.Outcome{Kind: finopsv1.KindSubscription, Namespace: s.Namespace, Name: s.Name, UID: s.UID,
		Conditions: ready, Owned: ready, Write: true, Finalizer: conditions.FinalizerAdd}
	p, err := writeplan.For(s, o, finopsv1.SubscriptionStatus{}, subscriptionWrites)
	require.NoError(t, err)
	require.NoError(t, ctrlplan.Carry(ctx, c, s, p))
	assert.Contains(t, s.Finalizers, finopsv1.SubscriptionFinalizer, "obj holds what the server answered")
	stored := &finopsv1.Subscription{}
	require.NoError(t, store.Get(ctx, client.ObjectKeyFromObject(s), stored))
	assert.Contains(t, stored.Finalizers, finopsv1.SubscriptionFinalizer)
	assert.Equal(t, "Ready", stored.Status.Conditions[0].Type)
}

// A message holding a C1 control or DEL reaches the store as it is: the
// plan's body carries it escaped, and Carry sends that body unchanged to
// a store that reads apply bodies as YAML, as an API server does.
func TestCarry_ControlCharactersStoredAsWritten(t *testing.T) {
	ctx := context.Background()
	c := ctrlplan.NewFakeClientBuilder().Build()
	b := &akv1.Binding{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "support"}}
	require.NoError(t, c.Create(ctx, b, client.FieldOwner("e2e-user")))
	ready := cond("Ready", "False", "AgentNotFound")
	ready.Message = "agent card name \"echo\u009c\u007f\u0085\""
	write(t, c, b, []metav1.Condition{ready})
	require.NoError(t, c.Get(ctx, client.ObjectKeyFromObject(b), b))
	assert.Equal(t, ready.Message, types(b)["Ready"].Message)
}
