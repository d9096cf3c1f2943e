package conformance

import (
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/scenario"
)

// Runners returns the runner of every system this module implements,
// keyed by the scenario's system name. Each call returns a new map, so a
// caller may add its own systems.
func Runners() scenario.Runners {
	return scenario.Runners{
		scenario.SystemBinding: binding.RunScenario,
		scenario.SystemFinOps:  finops.RunScenario,
	}
}
