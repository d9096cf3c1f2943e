package finops_test

import (
	"encoding/json"
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/conditions/conditionstest"
	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/finops/finopstest"
	"github.com/condengine/condengine/subscription"
	st "github.com/condengine/condengine/subscription/subscriptiontest"
)

// provenanceByObject renders each outcome's provenance under its object's
// identity, so results of shuffled snapshots compare.
func provenanceByObject(t *rapid.T, s finops.Snapshot, r finops.Result) map[string][]string {
	out := map[string][]string{}
	put := func(id string, p []conditions.Provenance) {
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		out[id] = append(out[id], string(b))
		slices.Sort(out[id])
	}
	for _, b := range r.PriceBooks.Books {
		put("PriceBook "+b.Namespace+"/"+b.Name+" "+string(b.UID), b.Provenance)
	}
	for _, o := range r.Offerings.Offerings {
		put("Offering "+o.Namespace+"/"+o.Name+" "+string(o.UID), o.Provenance)
	}
	for _, o := range r.Subscriptions.Subscriptions {
		put("Subscription "+o.Namespace+"/"+o.Name+" "+string(o.UID), o.Provenance)
	}
	return out
}

// Every condition of every PriceBook, Offering and Subscription outcome
// names a rule of the table and only objects of the snapshot; shuffling
// the lists changes no provenance.
func TestProperty_ProvenanceNamesTableRulesAndSnapshotObjects(t *testing.T) {
	ids := map[string]bool{}
	for _, r := range conformance.Rules(finopstest.System()) {
		ids[r.ID] = true
	}
	rapid.Check(t, func(t *rapid.T) {
		s := world(t)
		if rapid.Bool().Draw(t, "lived") {
			s = lived(t, s)
		}
		have := map[conditions.ObjectRef]bool{}
		for _, b := range s.PriceBooks {
			have[conditions.ObjectRef{Kind: finopsv1.KindPriceBook, Namespace: b.Namespace, Name: b.Name, UID: b.UID, Generation: b.Generation}] = true
		}
		for _, o := range s.Offerings {
			have[conditions.ObjectRef{Kind: finopsv1.KindOffering, Namespace: o.Namespace, Name: o.Name, UID: o.UID, Generation: o.Generation}] = true
			have[conditions.ObjectRef{Kind: finopsv1.KindOffering, Namespace: o.Namespace, Name: o.Name}] = true
		}
		for _, x := range s.Subscriptions {
			have[conditions.ObjectRef{Kind: finopsv1.KindSubscription, Namespace: x.Namespace, Name: x.Name, UID: x.UID, Generation: x.Generation}] = true
			have[conditions.ObjectRef{Kind: finopsv1.KindSubscription, Namespace: x.Namespace, Name: x.Name}] = true
		}
		in := func(r conditions.ObjectRef) bool { return have[r] }
		r, err := finops.Explain(s)
		if err != nil {
			t.Fatal(err)
		}
		check := func(what string, conds []metav1.Condition, prov []conditions.Provenance) {
			if p := conditionstest.ProvenanceProblem(conds, prov, ids, in); p != "" {
				t.Fatalf("%s: %s", what, p)
			}
		}
		for _, o := range r.PriceBooks.Books {
			check("PriceBook "+o.Namespace+"/"+o.Name, o.Status.Conditions, o.Provenance)
		}
		for _, o := range r.Offerings.Offerings {
			check("Offering "+o.Namespace+"/"+o.Name, o.Status.Conditions, o.Provenance)
		}
		for _, o := range r.Subscriptions.Subscriptions {
			check("Subscription "+o.Namespace+"/"+o.Name, o.Status.Conditions, o.Provenance)
		}
		want := provenanceByObject(t, s, r)
		p := s
		p.PriceBooks = rapid.Permutation(s.PriceBooks).Draw(t, "books")
		p.Offerings = rapid.Permutation(s.Offerings).Draw(t, "offerings")
		p.Subscriptions = rapid.Permutation(s.Subscriptions).Draw(t, "subscriptions")
		p.Objects = rapid.Permutation(s.Objects).Draw(t, "others")
		p.Failures = rapid.Permutation(s.Failures).Draw(t, "failures")
		rp, err := finops.Explain(p)
		if err != nil {
			t.Fatal(err)
		}
		got := provenanceByObject(t, p, rp)
		for id, w := range want {
			if !slices.Equal(got[id], w) {
				t.Fatalf("%s: shuffled input gave other provenance:\nwant %s\ngot  %s", id, w, got[id])
			}
		}
	})
}

// lived settles a world and then disturbs it, so the snapshot carries
// conditions and the states that only come later: deletions, ended
// Subscriptions, failed reads, a collection run, a stale snapshot and
// another writer's condition.
func lived(t *rapid.T, s finops.Snapshot) finops.Snapshot {
	s, _, _ = finops.Settle(s, 30)
	sub := subscription.Snapshot{Now: s.Now, Subscriptions: s.Subscriptions, Offerings: s.Offerings}
	sub.Objects = append(sub.Objects, s.Objects...)
	sub = st.Disturb(t, sub)
	s.Now, s.Subscriptions, s.Offerings, s.Collection = sub.Now, sub.Subscriptions, sub.Offerings, sub.Collection
	s.Objects = append([]finops.ObjectRef(nil), sub.Objects...)
	for _, f := range sub.Failures {
		s.Failures = append(s.Failures, finops.Failure{Kind: f.Kind, Namespace: f.Namespace, Name: f.Name})
	}
	if rapid.Bool().Draw(t, "listFails") {
		s.Failures = append(s.Failures, finops.Failure{Kind: rapid.SampledFrom([]string{"Subscription", finopsv1.KindOffering}).Draw(t, "listKind")})
	}
	if n := len(s.Offerings); n > 0 && rapid.Bool().Draw(t, "offeringDeleted") {
		i := rapid.IntRange(0, n-1).Draw(t, "deletedOffering")
		at := metav1.NewTime(s.Now)
		s.Offerings[i].DeletionTimestamp = &at
	}
	if n := len(s.PriceBooks); n > 0 && rapid.Bool().Draw(t, "foreign") {
		i := rapid.IntRange(0, n-1).Draw(t, "foreignBook")
		s.PriceBooks[i].Status.Conditions = append(slices.Clone(s.PriceBooks[i].Status.Conditions),
			metav1.Condition{Type: "example.com/Audited", Status: metav1.ConditionTrue, Reason: "Seen"})
	}
	if n := len(s.Subscriptions); n > 0 && rapid.Bool().Draw(t, "stale") {
		i := rapid.IntRange(0, n-1).Draw(t, "staleSub")
		if len(s.Subscriptions[i].Status.Conditions) > 0 {
			s.Subscriptions[i].Generation = 0
		}
	}
	return s
}
