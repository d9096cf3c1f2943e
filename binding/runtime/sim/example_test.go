package sim_test

import (
	"fmt"
	"time"

	policysim "github.com/condengine/condengine/binding/policy/sim"
	"github.com/condengine/condengine/binding/runtime/sim"
)

// The old path builds the same simulation.
func Example() {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var s *policysim.Sim = sim.New(sim.Options{Start: start})
	fmt.Println(s.Now().Equal(start))
	// Output: true
}
