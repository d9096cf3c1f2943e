package finops_test

import (
	"encoding/json"
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"pgregory.net/rapid"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/finops/finopstest"
	"github.com/condengine/condengine/offering"
	"github.com/condengine/condengine/pricebook"
	"github.com/condengine/condengine/subscription"
)

// world draws a whole FinOps snapshot with a requirement graph of up to
// eight further Offerings.
func world(t *rapid.T) finops.Snapshot { return finopstest.World(t, 8) }

// shuffled is s with each kind's list drawn in another order.
func shuffled(t *rapid.T, s finops.Snapshot) finops.Snapshot {
	s.PriceBooks = rapid.Permutation(s.PriceBooks).Draw(t, "books")
	s.Offerings = rapid.Permutation(s.Offerings).Draw(t, "offerings")
	s.Subscriptions = rapid.Permutation(s.Subscriptions).Draw(t, "subscriptions")
	return s
}

// statuses renders every object's status by identity, so two snapshots
// compare whatever their list order.
func statuses(t *rapid.T, s finops.Snapshot) map[string]string {
	out := map[string]string{}
	put := func(kind, ns, name string, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		out[kind+" "+ns+"/"+name] = string(b)
	}
	for _, b := range s.PriceBooks {
		put("PriceBook", b.Namespace, b.Name, b.Status)
	}
	for _, o := range s.Offerings {
		put("Offering", o.Namespace, o.Name, struct {
			S finopsv1.OfferingStatus
			F []string
		}{o.Status, o.Finalizers})
	}
	for _, x := range s.Subscriptions {
		put("Subscription", x.Namespace, x.Name, x.Status)
	}
	return out
}

func bound(s finops.Snapshot) int { return len(s.Offerings) + len(s.Subscriptions) + 10 }

func TestProperty_SettleConvergesIndependentOfOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := world(t)
		p := shuffled(t, s)
		a, _, err := finops.Settle(s, bound(s))
		if err != nil {
			t.Fatal(err)
		}
		b, _, err := finops.Settle(p, bound(p))
		if err != nil {
			t.Fatal(err)
		}
		sa, sb := statuses(t, a), statuses(t, b)
		for k, v := range sa {
			if sb[k] != v {
				t.Fatalf("%s settles differently by list order:\n%s\n%s", k, v, sb[k])
			}
		}
		if len(sa) != len(sb) {
			t.Fatalf("%d objects left against %d", len(sa), len(sb))
		}
	})
}

func TestProperty_SettledStateIsAFixedPoint(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s, _, err := finops.Settle(world(t), 1000)
		if err != nil {
			t.Fatal(err)
		}
		// One book holds the slot once settled, unless every book is
		// being deleted: those take no part in the election.
		active, live := 0, 0
		for _, b := range s.PriceBooks {
			if b.Status.Active {
				active++
			}
			if b.DeletionTimestamp == nil {
				live++
			}
		}
		if want := min(live, 1); active != want {
			t.Fatalf("%d active books among %d (%d not being deleted) after Settle, want %d", active, len(s.PriceBooks), live, want)
		}
		s.Now = s.Now.Add(3600e9) // later: still nothing to write
		r := evaluate(s)
		if r.Changed() {
			t.Fatalf("re-evaluating the settled state writes")
		}
		checkOutcomes(t, r)
		for _, b := range s.PriceBooks {
			o := bookOutcome(r, &b)
			if o == nil || !slices.EqualFunc(b.Status.Conditions, o.Status.Conditions, condEqual) {
				t.Fatalf("%s: conditions moved without a transition", b.Name)
			}
		}
	})
}

func TestProperty_EveryResultValidates(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := world(t)
		for round := 0; round < 3; round++ {
			r := evaluate(s)
			checkOutcomes(t, r)
			path := field.NewPath("status", "conditions")
			for _, o := range r.PriceBooks.Books {
				if errs := pricebook.Vocabulary.Validate(o.Status.Conditions, o.Generation, path); len(errs) > 0 {
					t.Fatalf("PriceBook %s: %v", o.Name, errs.ToAggregate())
				}
			}
			for _, o := range r.Offerings.Offerings {
				if errs := offering.Vocabulary.Validate(o.Status.Conditions, o.Generation, path); len(errs) > 0 {
					t.Fatalf("Offering %s/%s: %v", o.Namespace, o.Name, errs.ToAggregate())
				}
			}
			for _, o := range r.Subscriptions.Subscriptions {
				if errs := subscription.Vocabulary.Validate(o.Status.Conditions, o.Generation, path); len(errs) > 0 {
					t.Fatalf("Subscription %s/%s: %v", o.Namespace, o.Name, errs.ToAggregate())
				}
			}
			s = finops.Apply(s, r)
		}
	})
}
