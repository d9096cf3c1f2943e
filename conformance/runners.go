package conformance

import (
	"github.com/condengine/condengine/binding/bindingtest"
	"github.com/condengine/condengine/finops/finopstest"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
)

// SeedSystems returns the two systems this module implements, as new
// values: bindingtest.System, then finopstest.System. It is the one
// place the seed systems are listed; every other function of the
// package takes the systems it works on.
func SeedSystems() []*system.System {
	return []*system.System{bindingtest.System(), finopstest.System()}
}

// Runners returns the runner of each seed system (SeedSystems), keyed by
// the scenario's system name: the binding system's (the evaluation and
// the status writer's decision) and the finops system's. Each call
// returns a new map, so a caller may add its own systems.
func Runners() scenario.Runners {
	return system.Runners(SeedSystems()...)
}
