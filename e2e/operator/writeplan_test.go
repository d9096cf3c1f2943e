package operator_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/e2e/internal/kube"
	"github.com/condengine/condengine/examples/ctrlplan"
	"github.com/condengine/condengine/writeplan"
)

// planClient is a controller-runtime client that knows the module's kinds.
func (e *env) planClient() client.Client {
	e.T.Helper()
	c, err := client.New(e.C.RESTConfig(), client.Options{Scheme: ctrlplan.Scheme()})
	require.NoError(e.T, err)
	return c
}

// planCond is a condition as a writer sets it. Its lastTransitionTime is
// fixed, as the engine keeps it while the status holds: were it the
// clock's, a write a second later would change it, take it over from the
// writer that set it first, and drop it from a condition that writer
// still co-owns (the server then refuses the object, a flake).
func planCond(typ string, status metav1.ConditionStatus, reason string) metav1.Condition {
	return metav1.Condition{Type: typ, Status: status, Reason: reason, Message: typ + " is " + reason, ObservedGeneration: 1,
		LastTransitionTime: metav1.NewTime(planTime)}
}

// planTime is every planCond's lastTransitionTime.
var planTime = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

// writeOutcome reads b, plans the write of owned as ours (the other
// writers' conditions kept as read) and carries out the plan, or only
// the steps listed. It returns the steps carried out.
func (e *env) writeOutcome(c client.Client, b *akv1.Binding, owned []metav1.Condition, only ...writeplan.Step) []writeplan.Step {
	e.T.Helper()
	require.NoError(e.T, c.Get(e.Ctx, client.ObjectKeyFromObject(b), b))
	all := append([]metav1.Condition(nil), owned...)
	for _, x := range b.Status.Conditions {
		if x.Type == "Audited" {
			all = append(all, x)
		}
	}
	o := &conditions.Outcome{Kind: akv1.KindBinding, Namespace: b.Namespace, Name: b.Name, UID: b.UID,
		Conditions: all, Owned: owned, Write: true}
	p, err := writeplan.For(b, o, akv1.BindingStatus{Conditions: owned}, writeplan.Options{
		FieldManager: kube.FieldManager,
		Kind:         writeplan.Kind{APIVersion: akv1.APIVersion, Kind: akv1.KindBinding},
	})
	require.NoError(e.T, err)
	var steps []writeplan.Step
	var keep []writeplan.Request
	for _, r := range p.Requests {
		if len(only) == 0 || r.Step == only[0] {
			keep = append(keep, r)
			steps = append(steps, r.Step)
		}
	}
	p.Requests = keep
	require.NoError(e.T, ctrlplan.Carry(e.Ctx, c, b, p))
	return steps
}

// TestWritePlan_CoOwnedConditionRemoved: an earlier broker version's
// Update wrote BackendReachable (with an auditor's condition beside it),
// so after our apply it is co-owned; the Binding then stops being served.
// The plan's write removes BackendReachable and ChannelJoined and keeps
// the other manager's condition. Applying only our conditions, as the old
// quick start did, leaves BackendReachable standing.
func TestWritePlan_CoOwnedConditionRemoved(t *testing.T) {
	e := newEnv(t)
	ns := "writeplan-coowned"
	e.Kubectl("", "create", "namespace", ns)
	c := e.planClient()
	served := []metav1.Condition{planCond("Accepted", "True", "OK"), planCond("BackendReachable", "True", "OK"),
		planCond("ChannelJoined", "True", "OK"), planCond("Ready", "True", "OK")}
	notServed := []metav1.Condition{planCond("Accepted", "True", "OK"), planCond("Ready", "False", "NotServed")}

	for _, tc := range []struct {
		name      string
		only      []writeplan.Step
		wantStale bool
	}{
		{"plan", nil, false},
		{"apply-alone", []writeplan.Step{writeplan.StepApplyStatus}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.Dyn.Resource(kube.Bindings).Namespace(ns).Create(e.Ctx, kube.Binding(ns, tc.name, "echo", "slack", "C1"),
				metav1.CreateOptions{FieldManager: "e2e-user"})
			require.NoError(t, err)
			b := &akv1.Binding{}
			require.NoError(t, c.Get(e.Ctx, client.ObjectKey{Namespace: ns, Name: tc.name}, b))
			b.Status.Conditions = []metav1.Condition{planCond("BackendReachable", "True", "OK"), planCond("Audited", "True", "Checked")}
			require.NoError(t, c.Status().Update(e.Ctx, b, client.FieldOwner("agent-kourier-v0")))
			e.writeOutcome(c, b, served)
			assert.Contains(t, managers(e, ns, tc.name), "agent-kourier-v0/Update/status")

			steps := e.writeOutcome(c, b, notServed, tc.only...)
			if tc.only == nil {
				assert.Equal(t, []writeplan.Step{writeplan.StepRemoveConditions, writeplan.StepApplyStatus}, steps)
			}
			require.NoError(t, c.Get(e.Ctx, client.ObjectKeyFromObject(b), b))
			got := map[string]metav1.Condition{}
			for _, x := range b.Status.Conditions {
				got[x.Type] = x
			}
			assert.Equal(t, "False NotServed", string(got["Ready"].Status)+" "+got["Ready"].Reason)
			assert.Contains(t, got, "Audited", "the other manager's own condition stays")
			assert.NotContains(t, got, "ChannelJoined")
			_, stale := got["BackendReachable"]
			assert.Equal(t, tc.wantStale, stale, "BackendReachable after the write: %v", b.Status.Conditions)
		})
	}
}

// TestWritePlan_StatusBeforeFinalizer writes a deleted Subscription's
// status and then releases its finalizer, in the plan's order, on the
// real server: the status write lands and the release deletes the
// object. Released first, the status write finds no object.
func TestWritePlan_StatusBeforeFinalizer(t *testing.T) {
	e := newEnv(t)
	ns := "writeplan-finalizer"
	e.Kubectl("", "create", "namespace", ns)
	c := e.planClient()
	for _, reversed := range []bool{false, true} {
		name := "in-order"
		if reversed {
			name = "reversed"
		}
		s := &finopsv1.Subscription{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Finalizers: []string{finopsv1.SubscriptionFinalizer}},
			Spec: finopsv1.SubscriptionSpec{OfferingRef: finopsv1.Reference{Namespace: "shop", Name: "base"}}}
		require.NoError(t, c.Create(e.Ctx, s, client.FieldOwner("e2e-user")))
		require.NoError(t, c.Delete(e.Ctx, s))
		require.NoError(t, c.Get(e.Ctx, client.ObjectKeyFromObject(s), s))
		require.NotNil(t, s.DeletionTimestamp, "the finalizer holds the object")

		deleting := []metav1.Condition{planCond("Ready", "False", "Deleting"), planCond("Deleting", "True", "Deleted")}
		o := &conditions.Outcome{Kind: finopsv1.KindSubscription, Namespace: ns, Name: name, UID: s.UID,
			Conditions: deleting, Owned: deleting, Write: true, Finalizer: conditions.FinalizerRemove}
		p, err := writeplan.For(s, o, finopsv1.SubscriptionStatus{Ready: metav1.ConditionFalse}, writeplan.Options{
			FieldManager: "finops-operator",
			Kind:         writeplan.Kind{APIVersion: finopsv1.APIVersion, Kind: finopsv1.KindSubscription, Finalizer: finopsv1.SubscriptionFinalizer},
		})
		require.NoError(t, err)
		require.Len(t, p.Requests, 2)
		require.Equal(t, writeplan.StepApplyStatus, p.Requests[0].Step)
		require.Equal(t, writeplan.StepRemoveFinalizer, p.Requests[1].Step)
		if reversed {
			p.Requests[0], p.Requests[1] = p.Requests[1], p.Requests[0]
			err := ctrlplan.Carry(e.Ctx, c, s, p)
			require.True(t, apierrors.IsNotFound(err), "the status write after the release: %v", err)
			continue
		}
		// In order, one request at a time, reading the server between.
		status, release := p, p
		status.Requests, release.Requests = p.Requests[:1], p.Requests[1:]
		require.NoError(t, ctrlplan.Carry(e.Ctx, c, s, status))
		stored := &finopsv1.Subscription{}
		require.NoError(t, c.Get(e.Ctx, client.ObjectKeyFromObject(s), stored))
		require.NotNil(t, meta.FindStatusCondition(stored.Status.Conditions, "Deleting"), "the status is stored while the object still exists")
		require.NoError(t, ctrlplan.Carry(e.Ctx, c, stored, release))
		assert.True(t, apierrors.IsNotFound(c.Get(e.Ctx, client.ObjectKeyFromObject(s), stored)), "released, the object is gone")
	}
}
