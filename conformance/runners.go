package conformance

import (
	"github.com/condengine/condengine/scenario"
)

// Runners returns the runner of every system this module implements,
// keyed by the scenario's system name: RunBinding (the evaluation and the
// status writer's decision) and RunFinOps. Each call returns a new map, so a
// caller may add its own systems.
func Runners() scenario.Runners {
	return scenario.Runners{
		"binding": RunBinding,
		"finops":  RunFinOps,
	}
}
