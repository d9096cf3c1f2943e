package hostcheck

import (
	"slices"
	"testing"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/finops"
)

// TestFinOpsWorldsHoldReleasableSubscriptions: the drawn FinOps worlds
// hold Subscriptions deleted before the start, and a collection run at
// the start lets some of them go and keeps others (minPeriods, an
// Offering it cannot read), so the Subscription finalizer's rules are
// exercised, not vacuously passed.
func TestFinOpsWorldsHoldReleasableSubscriptions(t *testing.T) {
	sys := newSystem(FinOps).(finopsSystem)
	deleting, released, kept := 0, 0, 0
	for seed := uint64(1); seed <= DefaultSchedules; seed++ {
		world, err := sys.world(seed)
		if err != nil {
			t.Fatal(err)
		}
		st, err := newStore(sys, world)
		if err != nil {
			t.Fatal(err)
		}
		objs, err := listAll(t.Context(), st, sys.kinds())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := sys.collect(t.Context(), st, event{}, t0); err != nil {
			t.Fatal(err)
		}
		snap, err := finopsSnapshot(objs, t0)
		if err != nil {
			t.Fatal(err)
		}
		snap.Collection = sys.lastRun()
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
