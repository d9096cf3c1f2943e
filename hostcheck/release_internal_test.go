package hostcheck

import (
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
)

// FinalizerLast judges a release on what the host could have read. In
// the world below the engine releases the Offering only while no
// Subscription names it; a Subscription was created before the pass
// began, but the replica's cache has not received it. A host cannot rule
// out what it has not been told of, so the release stands; once the
// cache holds the Subscription too, the same release is a violation.
func TestFinalizerLast_JudgedOnWhatTheHostCouldRead(t *testing.T) {
	gvk := finopsv1.GroupVersion.WithKind("Offering")
	offering := &unstructured.Unstructured{}
	offering.SetGroupVersionKind(gvk)
	offering.SetNamespace("a")
	offering.SetName("o0")
	offering.SetUID("u-o0")
	offering.SetFinalizers([]string{"finops.example/hold"})
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	sub := &unstructured.Unstructured{}
	sub.SetGroupVersionKind(finopsv1.GroupVersion.WithKind("Subscription"))
	sub.SetNamespace("a")
	sub.SetName("s0")
	ok, sk := keyOf(offering), keyOf(sub)
	expect := func(objs []*unstructured.Unstructured, _ any, _, _ time.Time) (Expected, error) {
		release := true
		for _, u := range objs {
			if keyOf(u) == sk {
				release = false
			}
		}
		return Expected{Objects: map[ObjectKey]Answer{ok: {PassRelease: release, Release: release, Judged: true}}}, nil
	}
	for _, tc := range []struct {
		name      string
		cacheSubs bool
		wantBad   bool
	}{
		{"the cache lags the Subscription", false, false},
		{"the cache holds the Subscription", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys, err := newHarnessSystem(FinOps())
			if err != nil {
				t.Fatal(err)
			}
			r := &run{sys: sys, world: &World{Expect: expect}, now: now}
			r.reps[0] = newReplica(0)
			r.record(gvk, ok, offering)
			r.record(sub.GroupVersionKind(), sk, sub)
			p := r.reps[0]
			p.cacheVer = map[ObjectKey]int64{}
			p.take(r.log[0])
			if tc.cacheSubs {
				p.take(r.log[1])
			}
			r.passFrom = len(r.log)
			after := offering.DeepCopy()
			after.SetFinalizers(nil)
			w := write{verb: "patch", gvk: gvk, key: ok, guard: 1}
			r.checkRelease(p, w, offering, after)
			if got := r.bad != nil; got != tc.wantBad {
				t.Fatalf("violation: %v, want one: %v", r.bad, tc.wantBad)
			}
		})
	}
}
