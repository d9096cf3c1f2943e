package sim_test

import (
	"fmt"
	"time"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/policy/sim"
	"github.com/condengine/condengine/conditions"
)

// A Binding created as its broker starts: Ready is the bare Pending until
// the prober lists it, BackendReachable:Pending until the first probes
// end, then OK, one write gap after the last write.
func Example() {
	s := sim.New(sim.Options{})
	start := s.Now()
	s.AddBackend("team-a", "echo", sim.FastOK())
	s.AddConnection("team-a", "slack")
	s.Create("team-a", "chat", "echo", "slack", "C1")
	s.StartReplica("a")
	s.Run(time.Minute)
	for _, h := range s.History("team-a", "chat") {
		if r := conditions.Find(h.Conditions, binding.TypeReady); r != nil {
			fmt.Println(h.At.Sub(start), r.Status, r.Reason)
		}
	}
	// Output:
	// 1s Unknown Pending
	// 15s Unknown BackendReachable:Pending
	// 25s True OK
}
