package finops

import (
	"github.com/condengine/condengine/offering"
	"github.com/condengine/condengine/pricebook"
	"github.com/condengine/condengine/subscription"
)

// Explain is Evaluate with provenance: every PriceBook, Offering and
// Subscription outcome also carries, in its Provenance field, the rule
// and the raw evidence behind each of its conditions. The evidence may
// name other namespaces' objects: it is for logs and tools, never a
// status.
func Explain(s Snapshot) (Result, error) {
	r, err := Evaluate(s)
	if err != nil {
		return r, err
	}
	if r.PriceBooks, err = pricebook.Explain(s.PriceBooks, s.PricingDocument, s.Now); err != nil {
		return r, err
	}
	if r.Offerings, err = offering.Explain(s.offeringSnapshot()); err != nil {
		return r, err
	}
	if r.Subscriptions, err = subscription.Explain(s.subscriptionSnapshot()); err != nil {
		return r, err
	}
	return r, nil
}
