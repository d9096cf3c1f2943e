package hostcheck

import (
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/subscription"
)

// TestFinOpsWorldsHoldReleasableSubscriptions: the drawn FinOps worlds
// hold Subscriptions deleted before the start, and a collection run at
// the start lets some of them go and keeps others (minPeriods, an
// Offering it cannot read), so the Subscription finalizer's rules are
// exercised, not vacuously passed.
func TestFinOpsWorldsHoldReleasableSubscriptions(t *testing.T) {
	sys, err := newHarnessSystem(FinOps())
	if err != nil {
		t.Fatal(err)
	}
	deleting, released, kept := 0, 0, 0
	for seed := uint64(1); seed <= DefaultSchedules; seed++ {
		w, err := sys.NewWorld(seed)
		if err != nil {
			t.Fatal(err)
		}
		st, err := newStore(sys, w.Objects)
		if err != nil {
			t.Fatal(err)
		}
		objs, err := listAll(t.Context(), st, sys.gvks)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := w.Observe(t.Context(), st, Event{Op: ObserveEnd, Now: t0}); err != nil {
			t.Fatal(err)
		}
		snap, err := finopsSnapshot(objs, t0)
		if err != nil {
			t.Fatal(err)
		}
		snap.Collection = w.Observed().(*subscription.Collection)
		res, err := finops.Evaluate(snap)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range res.Subscriptions.Subscriptions {
			if i := slices.IndexFunc(snap.Subscriptions, func(x finopsv1.Subscription) bool { return x.UID == o.UID }); i < 0 || snap.Subscriptions[i].DeletionTimestamp == nil {
				continue
			}
			deleting++
			if o.Finalizer == conditions.FinalizerRemove {
				released++
			} else {
				kept++
			}
		}
	}
	t.Logf("%d schedules: %d Subscriptions deleted before the start, %d released by a run at the start, %d kept", DefaultSchedules, deleting, released, kept)
	if released == 0 || kept == 0 {
		t.Errorf("the worlds exercise too little: %d deleted Subscriptions, %d released, %d kept", deleting, released, kept)
	}
}

// TestUntouched_DropsOurConditionsOnly: a drawn world reaches the store
// with its kind set and without the conditions of our types, while
// another controller's conditions and the objects of kinds we do not
// decide stay as drawn.
func TestUntouched_DropsOurConditionsOnly(t *testing.T) {
	other := metav1.Condition{Type: "example.com/Other", Status: metav1.ConditionTrue, Reason: "Other"}
	ready := metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "ValidationSucceeded"}
	off := &finopsv1.Offering{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "o", UID: "u1"}}
	off.Status.Conditions = []metav1.Condition{ready, other}
	prov := &finopsv1.FinOpsProvider{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "p", UID: "u2"}}
	prov.Status.Conditions = []metav1.Condition{ready}
	objs, err := untouched(finopsScheme(), finopsOurs, []client.Object{off, prov})
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 2 {
		t.Fatalf("kept %d objects, want 2", len(objs))
	}
	if got := off.Status.Conditions; !slices.Equal(got, []metav1.Condition{other}) {
		t.Errorf("Offering conditions: got %v, want only %s", got, other.Type)
	}
	if got := prov.Status.Conditions; !slices.Equal(got, []metav1.Condition{ready}) {
		t.Errorf("FinOpsProvider conditions: got %v, want them as drawn", got)
	}
	if got := off.GetObjectKind().GroupVersionKind(); got != offeringGVK {
		t.Errorf("Offering kind: got %v, want %v", got, offeringGVK)
	}
	if _, err := untouched(finopsScheme(), finopsOurs, []client.Object{&akv1.Binding{}}); err == nil {
		t.Error("a Binding in a FinOps world: got no error")
	}
}
