package redact_test

import (
	"encoding/json"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/bindingtest"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/finops/finopstest"
	"github.com/condengine/condengine/offering"
	ot "github.com/condengine/condengine/offering/offeringtest"
	"github.com/condengine/condengine/pricebook"
	"github.com/condengine/condengine/subscription"
	st "github.com/condengine/condengine/subscription/subscriptiontest"
)

// plantStored puts a planted secret into some of the messages of conds
// that are of voc's types, the way someone with write access to the
// status could: the whole message, or after the engine's own words.
func plantStored(t *rapid.T, voc *conditions.Vocabulary, conds []metav1.Condition, p planted) {
	for i := range conds {
		c := &conds[i]
		if !voc.Has(c.Type) || !rapid.Bool().Draw(t, "plant") {
			continue
		}
		if rapid.Bool().Draw(t, "append") && c.Message != "" {
			c.Message += " " + plantedText(t, p.text)
		} else {
			c.Message = plantedText(t, p.text)
		}
	}
}

// checkOutcome fails when a condition the engine writes for one object,
// or the provenance that explains it, shows a planted secret. A stale
// outcome writes nothing: its conditions are the object's as read (the
// snapshot lags, so nothing may be decided from it), and there is nothing
// of ours to redact.
func checkOutcome(t *rapid.T, p planted, o *conditions.Outcome, provenance []conditions.Provenance) {
	if o.Skip == conditions.SkipStale {
		return
	}
	for _, c := range o.Owned {
		if x := p.shows(c.Message); x != "" {
			t.Fatalf("%s %s/%s %s writes %q back: %q", o.Kind, o.Namespace, o.Name, c.Type, x, c.Message)
		}
	}
	if len(provenance) > 0 {
		b, err := json.Marshal(provenance)
		if err != nil {
			t.Fatal(err)
		}
		if x := p.shows(string(b)); x != "" {
			t.Fatalf("%s %s/%s: explain shows %q: %s", o.Kind, o.Namespace, o.Name, x, b)
		}
	}
}

// A secret someone put into the stored message of one of our conditions
// is never written back, whatever the kind and whatever rule keeps or
// replaces the condition: not in a condition of the result, not in the
// provenance Explain gives. Each kind is planted on its own, so each
// kind's failure shows by name.
func TestStatus_PropertyStoredSecretsNeverWrittenBack(t *testing.T) {
	t.Run("Binding", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			p := rapid.SampledFrom(plantedSecrets).Draw(t, "secret")
			s := bindingtest.SnapshotGen().Draw(t, "snapshot")
			for i := range s.Bindings {
				plantStored(t, binding.Vocabulary, s.Bindings[i].Status.Conditions, p)
			}
			r, err := binding.Explain(s)
			if err != nil {
				t.Fatal(err)
			}
			for i := range r.Bindings {
				checkOutcome(t, p, &r.Bindings[i].Outcome, r.Bindings[i].Provenance)
			}
		})
	})
	finopsKind := func(plant func(t *rapid.T, s *finops.Snapshot, p planted)) func(t *testing.T) {
		return func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				p := rapid.SampledFrom(plantedSecrets).Draw(t, "secret")
				s := finopstest.SnapshotGen().Draw(t, "snapshot")
				plant(t, &s, p)
				r, err := finops.Explain(s)
				if err != nil {
					t.Fatal(err)
				}
				for i := range r.PriceBooks.Books {
					checkOutcome(t, p, &r.PriceBooks.Books[i].Outcome, r.PriceBooks.Books[i].Provenance)
				}
				for i := range r.Offerings.Offerings {
					checkOutcome(t, p, &r.Offerings.Offerings[i].Outcome, r.Offerings.Offerings[i].Provenance)
				}
				for i := range r.Subscriptions.Subscriptions {
					checkOutcome(t, p, &r.Subscriptions.Subscriptions[i].Outcome, r.Subscriptions.Subscriptions[i].Provenance)
				}
			})
		}
	}
	t.Run("PriceBook", finopsKind(func(t *rapid.T, s *finops.Snapshot, p planted) {
		for i := range s.PriceBooks {
			plantStored(t, pricebook.Vocabulary, s.PriceBooks[i].Status.Conditions, p)
		}
	}))
	// Some Offerings are being deleted and some Subscriptions have ended,
	// the states in which a kind keeps a stored condition as it is.
	t.Run("Offering", finopsKind(func(t *rapid.T, s *finops.Snapshot, p planted) {
		for i := range s.Offerings {
			o := &s.Offerings[i]
			if o.DeletionTimestamp == nil && rapid.Bool().Draw(t, "deleting") {
				ot.Deleting()(o)
			}
			plantStored(t, offering.Vocabulary, o.Status.Conditions, p)
		}
	}))
	t.Run("Subscription", finopsKind(func(t *rapid.T, s *finops.Snapshot, p planted) {
		for i := range s.Subscriptions {
			sub := &s.Subscriptions[i]
			if !sub.IsDeactivated() && sub.Status.ActivatedAt != nil && rapid.Bool().Draw(t, "ended") {
				st.Deactivated(sub.Status.ActivatedAt.Time, rapid.SampledFrom([]subscription.Reason{
					subscription.ReasonTargetNotFound, subscription.ReasonParentDeactivated,
					subscription.ReasonCompatibilityRequirementNotMet, subscription.ReasonMarkedForDeletion,
				}).Draw(t, "why"))(sub)
			}
			if rapid.Bool().Draw(t, "costs") {
				sub.Status.Conditions = append(sub.Status.Conditions, metav1.Condition{Type: subscription.TypeCostsResolved,
					Status: metav1.ConditionTrue, Reason: string(subscription.ReasonFromDB), ObservedGeneration: sub.Generation,
					LastTransitionTime: metav1.NewTime(s.Now.Add(-time.Hour).Truncate(time.Second))})
			}
			plantStored(t, subscription.Vocabulary, sub.Status.Conditions, p)
		}
	}))
}
