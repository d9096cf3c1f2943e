package hostcheck

import (
	"context"
	"fmt"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/subscription"
)

// The variants of a collection run: where its buckets came from, or an
// error recorded against one Subscription.
func collectionSources(e Event) string {
	switch e.Variant % 4 {
	case 2:
		return "the charge rows unreadable, every bucket from the fee calculator"
	case 3:
		return fmt.Sprintf("buckets from the charge rows, an error recorded against Subscription #%d", e.Target)
	}
	return "buckets from the charge rows"
}

// observe: the charge collector runs where a Binding schedule ends a
// probe pass; the FinOps system has no pass to start.
//
// Where a Binding schedule starts a probe pass, a run arrives too, one
// that was scheduled for the hour before and comes late: runs reach the
// host between any two of its passes, for more than one hour.
func (s *finopsWorld) observe(ctx context.Context, c client.Reader, e Event) (string, []types.NamespacedName, error) {
	if e.Op != ObserveEnd {
		late := e
		late.Now = e.Now.Add(-time.Hour)
		names, err := s.collect(ctx, c, late)
		return "the charge collector's run for the hour before arrives late (" + collectionSources(e) + ")", names, err
	}
	names, err := s.collect(ctx, c, e)
	return "the charge collector runs for this hour (" + collectionSources(e) + ")", names, err
}

// finish: the charge collector runs once more when faults and edits
// stop, so every world's held Subscriptions are judged for release.
func (s *finopsWorld) finish(ctx context.Context, c client.Reader, now time.Time) (string, []types.NamespacedName, error) {
	e := Event{Op: ObserveEnd, Now: now}
	names, err := s.collect(ctx, c, e)
	return "the charge collector runs once more (" + collectionSources(e) + ")", names, err
}

// collect is a SubscriptionChargeCollection run at e.Now, scheduled for
// the hour it is in: it gives every activated Subscription three buckets
// from the source e draws (or an error), becomes the last run, and its
// end queues every object with a status. The run's own writes (charge
// rows, its record on the CostJob) are outside what the harness stores.
func (s *finopsWorld) collect(ctx context.Context, c client.Reader, e Event) ([]types.NamespacedName, error) {
	objs, err := listAll(ctx, c, finopsKinds)
	if err != nil {
		return nil, err
	}
	run := &subscription.Collection{ScheduledHour: e.Now.UTC().Truncate(time.Hour)}
	src := subscription.SourceDB
	if e.Variant%4 == 2 {
		src = subscription.SourceCalculator
	}
	var names []types.NamespacedName
	subs := ofKind(objs, finopsv1.KindSubscription)
	for i, u := range subs {
		if _, ok, _ := unstructured.NestedString(u.Object, "status", "activatedAt"); !ok {
			continue
		}
		r := subscription.CollectionResult{Subscription: finopsv1.Reference{Namespace: u.GetNamespace(), Name: u.GetName()}, Buckets: 3, Source: src}
		if e.Variant%4 == 3 && i == e.Target%len(subs) {
			r.Buckets, r.Source = 0, subscription.SourceError
		}
		run.Results = append(run.Results, r)
	}
	for _, u := range objs {
		if slices.Contains(finopsStatusKinds, u.GroupVersionKind()) {
			names = append(names, keyOf(u).NamespacedName)
		}
	}
	s.last = run
	return names, nil
}
