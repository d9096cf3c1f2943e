package conformance

import (
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/system"
)

// Vocabularies returns the condition vocabulary of every kind of systems
// that carries conditions, system by system in the order given and each
// in the order of its Kinds: for the seed systems, the Binding first,
// then the FinOps kinds in the order their operator documents them
// (CostJob and FinOpsProvider carry no conditions and have none). The
// slice is new on each call.
func Vocabularies(systems ...*system.System) []*conditions.Vocabulary {
	var out []*conditions.Vocabulary
	for _, s := range systems {
		out = append(out, s.Vocabularies()...)
	}
	return out
}
