package finops_test

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/finops/finopstest"
)

// instants reaches every instant an object of s carries, each through
// set, which gets a label and returns the instant to put in its place.
type instants struct {
	set func(label string, at metav1.Time) metav1.Time
}

func (x instants) ptr(label string, p *metav1.Time) *metav1.Time {
	if p == nil {
		return nil
	}
	v := x.set(label, *p)
	return &v
}

func (x instants) meta(m *metav1.ObjectMeta) {
	m.CreationTimestamp = x.set("created", m.CreationTimestamp)
	m.DeletionTimestamp = x.ptr("deleted", m.DeletionTimestamp)
}

func (x instants) conds(cs []metav1.Condition) []metav1.Condition {
	cs = slices.Clone(cs)
	for i := range cs {
		cs[i].LastTransitionTime = x.set("transition", cs[i].LastTransitionTime)
	}
	return cs
}

// all returns a copy of s with every instant its objects carry replaced
// through x; s is not changed.
func (x instants) all(s finops.Snapshot) finops.Snapshot {
	s.PriceBooks = slices.Clone(s.PriceBooks)
	for i := range s.PriceBooks {
		b := &s.PriceBooks[i]
		x.meta(&b.ObjectMeta)
		b.Status.Conditions = x.conds(b.Status.Conditions)
	}
	s.Offerings = slices.Clone(s.Offerings)
	for i := range s.Offerings {
		o := &s.Offerings[i]
		x.meta(&o.ObjectMeta)
		o.Status.Conditions = x.conds(o.Status.Conditions)
		if p := o.Status.ResolvedPricing; p != nil {
			c := *p
			c.ResolvedAt = x.set("resolved", c.ResolvedAt)
			o.Status.ResolvedPricing = &c
		}
	}
	s.Subscriptions = slices.Clone(s.Subscriptions)
	for i := range s.Subscriptions {
		o := &s.Subscriptions[i]
		x.meta(&o.ObjectMeta)
		o.Status.Conditions = x.conds(o.Status.Conditions)
		o.Status.ActivatedAt = x.ptr("activated", o.Status.ActivatedAt)
		o.Status.DeactivatedAt = x.ptr("deactivated", o.Status.DeactivatedAt)
		o.Status.Costs = slices.Clone(o.Status.Costs)
		for k := range o.Status.Costs {
			c := &o.Status.Costs[k]
			c.Start, c.EndExclusive = x.set("start", c.Start), x.set("end", c.EndExclusive)
		}
	}
	return s
}

func truncated(t metav1.Time) metav1.Time {
	if t.IsZero() {
		return t
	}
	return metav1.NewTime(t.Truncate(time.Second))
}

// Every instant a FinOps object carries is read at whole seconds: a
// snapshot with a fraction of a second drawn onto each of them evaluates
// exactly as the same snapshot at whole seconds, and no fraction reaches
// an outcome.
func TestEvaluate_InstantsAreReadAtWholeSeconds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := finopstest.SnapshotGen().Draw(t, "snapshot")
		whole := instants{set: func(_ string, at metav1.Time) metav1.Time { return truncated(at) }}.all(s)
		frac := instants{set: func(label string, at metav1.Time) metav1.Time {
			if at.IsZero() {
				return at
			}
			return metav1.NewTime(truncated(at).Add(time.Duration(rapid.Int64Range(0, 999_999_999).Draw(t, label))))
		}}.all(s)
		want, err := finops.Evaluate(whole)
		if err != nil {
			t.Fatal(err)
		}
		got, err := finops.Evaluate(frac)
		if err != nil {
			t.Fatal(err)
		}
		w, _ := json.Marshal(want)
		g, _ := json.Marshal(got)
		if string(w) != string(g) {
			t.Fatalf("fractions changed the result:\nwant %s\ngot  %s", w, g)
		}
		check := func(what string, at *metav1.Time) {
			if at != nil && at.Nanosecond() != 0 {
				t.Fatalf("%s %s has a fraction", what, at.Format(time.RFC3339Nano))
			}
		}
		for _, o := range got.PriceBooks.Books {
			for _, c := range o.Conditions {
				check("PriceBook "+o.Name+" "+c.Type, &c.LastTransitionTime)
			}
		}
		for _, o := range got.Offerings.Offerings {
			for _, c := range o.Conditions {
				check("Offering "+o.Name+" "+c.Type, &c.LastTransitionTime)
			}
		}
		for _, o := range got.Subscriptions.Subscriptions {
			for _, c := range o.Conditions {
				check("Subscription "+o.Name+" "+c.Type, &c.LastTransitionTime)
			}
			check("Subscription "+o.Name+" activatedAt", o.Status.ActivatedAt)
			check("Subscription "+o.Name+" deactivatedAt", o.Status.DeactivatedAt)
		}
	})
}
