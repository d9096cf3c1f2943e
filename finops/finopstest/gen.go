package finopstest

import (
	"pgregory.net/rapid"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/finops"
	ot "github.com/condengine/condengine/offering/offeringtest"
	pb "github.com/condengine/condengine/pricebook/pricebooktest"
	"github.com/condengine/condengine/subscription"
	st "github.com/condengine/condengine/subscription/subscriptiontest"
)

// SnapshotGen draws a FinOps snapshot: books with every tier and bad
// rates, Subscription families with their Offerings and targets, a random
// requirement graph of further Offerings, failing reads; then zero to
// three reconciles applied (statuses, finalizers, the OpenCost document),
// and finally time passing with objects deleted, edited, made not ready
// and a charge collection run.
func SnapshotGen() *rapid.Generator[finops.Snapshot] {
	return rapid.Custom(func(t *rapid.T) finops.Snapshot {
		s := World(t, 6)
		for range rapid.IntRange(0, 3).Draw(t, "reconciles") {
			r, err := finops.Evaluate(s)
			if err != nil {
				t.Fatalf("a generated snapshot is refused: %v", err)
			}
			s = finops.Apply(s, r)
		}
		if rapid.Bool().Draw(t, "disturb") {
			s = disturb(t, s)
		}
		return s
	})
}

// World draws a FinOps snapshot as no reconcile has seen it yet: books
// with every tier and bad rates, the Subscription package's generated
// families with their Offerings, failing reads, and a random requirement
// graph of at most graph further Offerings.
func World(t *rapid.T, graph int) finops.Snapshot {
	w := st.World(t)
	s := finops.Snapshot{Now: w.Now, PriceBooks: pb.Books(6).Draw(t, "books"),
		Offerings: append(w.Offerings, ot.Graph(graph).Draw(t, "graph")...), Subscriptions: w.Subscriptions}
	s.Objects = append(s.Objects, w.Objects...)
	for _, f := range w.Failures {
		s.Failures = append(s.Failures, finops.Failure{Kind: f.Kind, Namespace: f.Namespace, Name: f.Name})
	}
	return s
}

// disturb runs subscriptiontest.Disturb on the parts of s it knows.
func disturb(t *rapid.T, s finops.Snapshot) finops.Snapshot {
	in := subscription.Snapshot{Now: s.Now, Subscriptions: s.Subscriptions, Offerings: s.Offerings}
	in.Objects = append(in.Objects, s.Objects...)
	for _, f := range s.Failures {
		in.Failures = append(in.Failures, subscription.ObjectRef{APIVersion: f.APIVersion, Kind: f.Kind, Namespace: f.Namespace, Name: f.Name})
	}
	out := st.Disturb(t, in)
	s.Now, s.Subscriptions, s.Collection = out.Now, out.Subscriptions, out.Collection
	s.Offerings = append([]finopsv1.Offering(nil), out.Offerings...)
	s.Objects, s.Failures = append([]finops.ObjectRef(nil), out.Objects...), nil
	for _, f := range out.Failures {
		s.Failures = append(s.Failures, finops.Failure{APIVersion: f.APIVersion, Kind: f.Kind, Namespace: f.Namespace, Name: f.Name})
	}
	return s
}
