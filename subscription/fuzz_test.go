package subscription_test

import (
	"fmt"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/subscription"
)

// bytesource turns fuzz input into choices; past the end it yields zeros.
type bytesource struct {
	b []byte
	i int
}

func (s *bytesource) next() int {
	if s.i >= len(s.b) {
		return 0
	}
	s.i++
	return int(s.b[s.i-1])
}

func (s *bytesource) pick(n int) int { return s.next() % n }

// fuzzSnapshot builds a snapshot from fuzz bytes with no regard for
// consistency: statuses that contradict themselves, stamps naming nobody,
// empty names and namespaces, shared uids, any parent, any target.
func fuzzSnapshot(data []byte) subscription.Snapshot {
	src := &bytesource{b: data}
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	at := func() *metav1.Time {
		t := metav1.NewTime(now.Add(time.Duration(src.next()-128) * time.Hour))
		return &t
	}
	names := []string{"", "a", "b", "c", "d"}
	nss := []string{"", "x", "y"}
	ref := func() finopsv1.Reference {
		return finopsv1.Reference{Namespace: nss[src.pick(3)], Name: names[src.pick(5)]}
	}
	snap := subscription.Snapshot{Now: now}
	for range src.pick(5) {
		o := finopsv1.Offering{ObjectMeta: metav1.ObjectMeta{Namespace: nss[src.pick(3)], Name: names[src.pick(5)]}}
		if src.pick(2) == 0 {
			o.Status.Ready = metav1.ConditionTrue
		}
		for range src.pick(3) {
			r := ref()
			if o.Spec.Compatibility == nil {
				o.Spec.Compatibility = &finopsv1.Compatibility{}
			}
			o.Spec.Compatibility.RequiredOfferings = append(o.Spec.Compatibility.RequiredOfferings, r)
		}
		if src.pick(3) == 0 {
			o.Spec.Lifecycle = &finopsv1.OfferingLifecycle{OnParentDeactivate: []string{"", "Orphan", "Deactivate", "bogus"}[src.pick(4)]}
		}
		if src.pick(2) == 0 {
			m := int64(src.pick(4))
			o.Spec.Pricing.SubscriptionFee = &finopsv1.SubscriptionFee{PriceMicros: int64(src.next()) * 1_000_000,
				Period:        []string{"1h", "90m", "1", "0", "x", "6"}[src.pick(6)],
				TickAlignment: []string{"ActivatedAt", "HourBoundary", "DayBoundary", "MonthBoundary", ""}[src.pick(5)], MinPeriods: &m}
		}
		snap.Offerings = append(snap.Offerings, o)
	}
	reasons := []string{"ActivationSucceeded", "Orphaned", "ParentDeactivated", "TargetNotFound", "MarkedForDeletion", "Bogus", "FromDB"}
	for range src.pick(9) {
		s := finopsv1.Subscription{ObjectMeta: metav1.ObjectMeta{Namespace: nss[src.pick(3)], Name: names[src.pick(5)],
			UID: types.UID(fmt.Sprintf("u%d", src.pick(4))), Generation: int64(src.pick(4)) - 1}}
		s.Spec.OfferingRef = ref()
		if src.pick(2) == 0 {
			s.Spec.Parent = &finopsv1.Parent{SubscriptionRef: ref()}
		}
		if src.pick(2) == 0 {
			s.Spec.Lifecycle = &finopsv1.SubscriptionLifecycle{OnParentDeactivate: []string{"", "Orphan", "Deactivate"}[src.pick(3)]}
			if src.pick(2) == 0 {
				r := ref()
				s.Spec.Lifecycle.TargetRef = &finopsv1.TargetRef{APIVersion: []string{"", "v1", finopsv1.APIVersion}[src.pick(3)],
					Kind: []string{"", "ConfigMap", "Subscription"}[src.pick(3)], Namespace: r.Namespace, Name: r.Name}
			}
		}
		if src.pick(2) == 0 {
			s.Status.ActivatedAt = at()
		}
		if src.pick(3) == 0 {
			s.Status.DeactivatedAt = at()
		}
		if src.pick(2) == 0 {
			s.Status.CompatibilityRoot = fmt.Sprintf("u%d", src.pick(4))
		}
		s.Status.Ready = []metav1.ConditionStatus{"", "True", "False", "Unknown"}[src.pick(4)]
		for _, typ := range []string{"Ready", "Active", "Deleting", "CostsResolved"} {
			if src.pick(2) == 0 {
				s.Status.Conditions = append(s.Status.Conditions, metav1.Condition{Type: typ,
					Status: []metav1.ConditionStatus{"True", "False"}[src.pick(2)], Reason: reasons[src.pick(len(reasons))],
					ObservedGeneration: int64(src.pick(5)), LastTransitionTime: *at(), Message: []string{"", "line\nbreak"}[src.pick(2)]})
			}
		}
		if src.pick(3) == 0 {
			s.DeletionTimestamp = at()
			if src.pick(2) == 0 {
				s.Finalizers = []string{finopsv1.SubscriptionFinalizer}
			}
		}
		snap.Subscriptions = append(snap.Subscriptions, s)
	}
	for range src.pick(3) {
		r := ref()
		snap.Failures = append(snap.Failures, subscription.ObjectRef{Kind: []string{"Offering", "Subscription", "ConfigMap"}[src.pick(3)], Namespace: r.Namespace, Name: r.Name})
	}
	for range src.pick(3) {
		r := ref()
		snap.Objects = append(snap.Objects, subscription.ObjectRef{APIVersion: "v1", Kind: "ConfigMap", Namespace: r.Namespace, Name: r.Name})
	}
	if src.pick(2) == 0 {
		c := &subscription.Collection{ScheduledHour: now.Add(time.Duration(src.next()-128) * time.Hour)}
		for range src.pick(4) {
			c.Results = append(c.Results, subscription.CollectionResult{Subscription: ref(), Buckets: src.pick(4) - 1,
				Source: []subscription.Source{"db", "calculator", "error", "weird"}[src.pick(4)]})
		}
		snap.Collection = c
	}
	return snap
}

type fatalf struct{ t *testing.T }

func (f fatalf) Fatalf(format string, args ...any) { f.t.Fatalf(format, args...) }

// FuzzEvaluate feeds self-contradicting snapshots to Evaluate: it must not
// panic, must be deterministic, and what it writes must validate and keep
// the one-way rules.
func FuzzEvaluate(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{3, 1, 0, 1, 1, 0, 0, 0, 5, 1, 1, 0, 1, 1, 0, 1, 1, 0, 0, 0, 0, 1, 1})
	f.Add([]byte("the quick brown fox jumps over the lazy dog, twice: the quick brown fox"))
	f.Fuzz(func(t *testing.T, data []byte) {
		snap := fuzzSnapshot(data)
		res := evaluate(snap)
		if d := gocmp.Diff(res, evaluate(snap)); d != "" {
			t.Fatalf("not deterministic:\n%s", d)
		}
		count := map[finopsv1.Reference]int{}
		for _, s := range snap.Subscriptions {
			count[s.Key()]++
		}
		by := map[finopsv1.Reference]*finopsv1.Subscription{}
		for i := range snap.Subscriptions {
			by[snap.Subscriptions[i].Key()] = &snap.Subscriptions[i]
		}
		for _, o := range res.Subscriptions {
			k := finopsv1.Reference{Namespace: o.Namespace, Name: o.Name}
			if count[k] != 1 {
				t.Fatalf("%s listed %d times but evaluated", k, count[k])
			}
			in := *by[k]
			in.Generation = max(in.Generation, 0)
			checkOutcome(fatalf{t}, &in, o)
		}
	})
}
