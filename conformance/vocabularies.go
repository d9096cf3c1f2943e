package conformance

import (
	"github.com/condengine/condengine/conditions"
)

// Vocabularies returns the condition vocabulary of every kind that carries
// conditions, Agent Kourier's first, then FinOps in the order its
// documentation lists the kinds. CostJob and FinOpsProvider carry none.
func Vocabularies() []*conditions.Vocabulary {
	return []*conditions.Vocabulary{}
}
