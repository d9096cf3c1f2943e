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
func Explain(s Snapshot) Result {
	r := Evaluate(s)
	r.PriceBooks = pricebook.Explain(s.PriceBooks, s.PricingDocument, s.Now)
	r.Offerings = offering.Explain(s.offeringSnapshot())
	r.Subscriptions = subscription.Explain(s.subscriptionSnapshot())
	return r
}
