package explain_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/explain"
	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/offering"
	"github.com/condengine/condengine/pricebook"
	"github.com/condengine/condengine/subscription"
)

func outcome(kind, ns, name string) conditions.Outcome {
	return conditions.Outcome{Kind: kind, Namespace: ns, Name: name}
}

// finopsResult holds one object of each kind with conditions, each kind
// listed in an order a kind-blind sort would change.
func finopsResult() finops.Result {
	ready := []metav1.Condition{cond("Ready", "True", "OK")}
	prov := []conditions.Provenance{{Type: "Ready", Rule: "r/ready"}}
	var r finops.Result
	r.Subscriptions.Subscriptions = []subscription.Outcome{{Outcome: outcome(finopsv1.KindSubscription, "a", "sub"),
		Status: finopsv1.SubscriptionStatus{Conditions: ready}, Provenance: prov}}
	r.Offerings.Offerings = []offering.Outcome{{Outcome: outcome(finopsv1.KindOffering, "z", "off"),
		Status: finopsv1.OfferingStatus{Conditions: ready}, Provenance: prov}}
	r.PriceBooks.Books = []pricebook.Outcome{
		{Outcome: outcome(finopsv1.KindPriceBook, "z", "book2"), Status: finopsv1.PriceBookStatus{Conditions: ready}, Provenance: prov},
		{Outcome: outcome(finopsv1.KindPriceBook, "b", "book1"), Status: finopsv1.PriceBookStatus{Conditions: ready}},
	}
	return r
}

func TestFinOps_EveryKindInResultOrderWithItsDecisions(t *testing.T) {
	got, err := explain.FinOps(finopsResult(), map[string]string{"r/ready": "ready sentence"})
	if err != nil {
		t.Fatal(err)
	}
	decided := []explain.Condition{{Type: "Ready", Status: "True", Reason: "OK", ObservedGeneration: 2,
		Decision: explain.Decision{Rule: "r/ready", Sentence: "ready sentence"}}}
	undecided := []explain.Condition{{Type: "Ready", Status: "True", Reason: "OK", ObservedGeneration: 2}}
	want := []explain.Object{
		{Kind: "PriceBook", Namespace: "z", Name: "book2", Conditions: decided},
		{Kind: "PriceBook", Namespace: "b", Name: "book1", Conditions: undecided},
		{Kind: "Offering", Namespace: "z", Name: "off", Conditions: decided},
		{Kind: "Subscription", Namespace: "a", Name: "sub", Conditions: decided},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestFinOps_RefusesAResultMissingSubscriptions(t *testing.T) {
	r := finopsResult()
	r.Subscriptions.Errors = []string{"Subscription a/dup: listed twice", "Subscription a/x: listed twice"}
	got, err := explain.FinOps(r, nil)
	if err == nil || err.Error() != "snapshot: Subscription a/dup: listed twice; Subscription a/x: listed twice" {
		t.Fatalf("err %v, objects %+v", err, got)
	}
	if got != nil {
		t.Errorf("objects %+v beside the error", got)
	}
}

func TestFinOps_Empty(t *testing.T) {
	got, err := explain.FinOps(finops.Result{}, nil)
	if err != nil || len(got) != 0 {
		t.Fatalf("%+v, %v", got, err)
	}
}
