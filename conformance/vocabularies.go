package conformance

import (
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/offering"
	"github.com/condengine/condengine/pricebook"
	"github.com/condengine/condengine/subscription"
)

// Vocabularies returns the condition vocabulary of every kind that carries
// conditions: the Binding first, then the FinOps kinds in the order their
// operator documents them. CostJob and FinOpsProvider carry no conditions
// and have none. The slice is new on each call.
func Vocabularies() []*conditions.Vocabulary {
	return []*conditions.Vocabulary{
		binding.Vocabulary,
		pricebook.Vocabulary,
		offering.Vocabulary,
		subscription.Vocabulary,
	}
}
