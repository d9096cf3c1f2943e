package explain

import (
	"fmt"
	"strings"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/finops"
)

// FinOps pairs the conditions of every PriceBook, Offering and
// Subscription of r (a finops.Explain result) with their provenance and
// the rule sentences of sentences: the PriceBooks first, then the
// Offerings, then the Subscriptions, each kind in r's order. A result
// whose Subscriptions.Errors is not empty left some Subscriptions out;
// it is refused with those errors rather than explained with objects
// missing.
func FinOps(r finops.Result, sentences map[string]string) ([]Object, error) {
	if len(r.Subscriptions.Errors) > 0 {
		return nil, fmt.Errorf("snapshot: %s", strings.Join(r.Subscriptions.Errors, "; "))
	}
	out := make([]Object, 0, len(r.PriceBooks.Books)+len(r.Offerings.Offerings)+len(r.Subscriptions.Subscriptions))
	for _, o := range r.PriceBooks.Books {
		out = append(out, NewObject(finopsv1.KindPriceBook, o.Namespace, o.Name, o.Status.Conditions, o.Provenance, sentences))
	}
	for _, o := range r.Offerings.Offerings {
		out = append(out, NewObject(finopsv1.KindOffering, o.Namespace, o.Name, o.Status.Conditions, o.Provenance, sentences))
	}
	for _, o := range r.Subscriptions.Subscriptions {
		out = append(out, NewObject(finopsv1.KindSubscription, o.Namespace, o.Name, o.Status.Conditions, o.Provenance, sentences))
	}
	return out, nil
}
