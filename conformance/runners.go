package conformance

import (
	"github.com/condengine/condengine/binding/runtime"
	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/scenario"
)

// Runners returns the runner of every system this module implements,
// keyed by the scenario's system name. Binding scenarios run through the
// binding runtime, which evaluates them as package binding does and adds
// the status writer's decision for files with a writer block. Each call returns a new map, so a
// caller may add its own systems.
func Runners() scenario.Runners {
	return scenario.Runners{
		scenario.SystemBinding: runtime.RunScenario,
		scenario.SystemFinOps:  finops.RunScenario,
	}
}
