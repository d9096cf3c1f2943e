package pricebook_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"pgregory.net/rapid"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/conditions/conditionstest"
	"github.com/condengine/condengine/pricebook"
	pb "github.com/condengine/condengine/pricebook/pricebooktest"
)

func statusJSON(t *rapid.T, s finopsv1.PriceBookStatus) string {
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestProperty_OrderIndependence(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		books := pb.Books(8).Draw(t, "books")
		perm := rapid.Permutation(books).Draw(t, "perm")
		a, b := evaluate(books, nil, now), evaluate(perm, nil, now)
		if x, y := resultJSON(t, a), resultJSON(t, b); x != y {
			t.Fatalf("shuffled input, another result:\n%s\n%s", x, y)
		}
		conditionstest.CheckOutcomes(t, pricebook.Vocabulary, a.Books)
	})
}

func resultJSON(t *rapid.T, r pricebook.Result) string {
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestProperty_ExactlyOneActiveAndIdempotent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		books := pb.Books(8).Draw(t, "books")
		r := evaluate(books, nil, now)
		applied := apply(books, r)
		active := 0
		for _, b := range applied {
			if b.Status.Active {
				active++
			}
		}
		if len(books) > 0 && active != 1 {
			t.Fatalf("%d active books after one evaluation of %d", active, len(books))
		}
		later := now.Add(time.Hour)
		r2 := evaluate(applied, r.Document, later)
		if r2.DocumentChanged {
			t.Fatalf("document changed on re-evaluation")
		}
		for i := range applied {
			o := outcomeOf(r2, &applied[i])
			if o.Write {
				t.Fatalf("%s re-evaluation writes: %s -> %s", applied[i].Name,
					statusJSON(t, applied[i].Status), statusJSON(t, o.Status))
			}
			before := conditions.Find(applied[i].Status.Conditions, pricebook.TypeActive)
			after := conditions.Find(o.Status.Conditions, pricebook.TypeActive)
			if (before == nil) != (after == nil) || before != nil && !conditions.Equal([]metav1.Condition{*before}, []metav1.Condition{*after}) {
				t.Fatalf("%s: Active moved without a transition", applied[i].Name)
			}
		}
	})
}

func TestProperty_ResultsValidateAndAgreeWithStatus(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		books := pb.Books(8).Draw(t, "books")
		r := evaluate(books, nil, now)
		for i := range books {
			o := outcomeOf(r, &books[i])
			if errs := pricebook.Vocabulary.Validate(o.Status.Conditions, books[i].Generation, field.NewPath("status", "conditions")); len(errs) > 0 {
				t.Fatalf("%s: %v", books[i].Name, errs.ToAggregate())
			}
			ready := conditions.Find(o.Status.Conditions, pricebook.TypeReady)
			if ready == nil || ready.Status != o.Status.Ready {
				t.Fatalf("%s: status.ready %q does not mirror Ready", books[i].Name, o.Status.Ready)
			}
			if (o.Status.ActivePricing != nil) != (o == &r.Books[r.Elected] && o.Status.Ready == "True") {
				t.Fatalf("%s: activePricing set=%v, winner=%v ready=%s", books[i].Name, o.Status.ActivePricing != nil, o == &r.Books[r.Elected], o.Status.Ready)
			}
			if o.Status.Active != books[i].Status.Active {
				want := map[bool]string{true: pricebook.ReasonActivated, false: pricebook.ReasonDemoted}[o.Status.Active]
				if c := conditions.Find(o.Status.Conditions, pricebook.TypeActive); c == nil || c.Reason != want {
					t.Fatalf("%s: the flag moved but Active is %v, want %s", books[i].Name, c, want)
				}
			}
		}
	})
}

// The own-text rule: a rate that fails to parse
// is the book's own text; PricebookParseFailed quotes it whole and
// unredacted, however secret-like (long digit runs, key=value shapes), and
// only the 1024-byte rule cuts the message.
func TestProperty_ParseFailedQuotesOwnRateExactly(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		value := rapid.OneOf(
			rapid.StringMatching(`[0-9]{20,90}`),
			rapid.StringMatching(`[0-9]{1,6}\.[0-9]{7,60}`),
			rapid.StringMatching(`token=[0-9a-f]{32,40}`),
		).Draw(t, "value")
		b := pb.New("finops", "book")
		b.Spec.Rates.GPUHour = value
		r := evaluate([]finopsv1.PriceBook{b}, nil, now)
		ready := conditions.Find(r.Books[0].Status.Conditions, pricebook.TypeReady)
		if ready == nil || ready.Reason != pricebook.ReasonPricebookParseFailed {
			t.Fatalf("rate %q: Ready is %+v", value, ready)
		}
		if want := `rate "gpuHour" ("` + value + `"): `; !strings.HasPrefix(ready.Message, want) {
			t.Fatalf("message %q does not start with %q", ready.Message, want)
		}
		if conditions.MessageProblem(ready.Message) != "" {
			t.Fatalf("message %q breaks the message rule", ready.Message)
		}
	})
}
