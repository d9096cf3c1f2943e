package sim

import policysim "github.com/condengine/condengine/binding/policy/sim"

// The types, by their names in binding/policy/sim.
type (
	// Deprecated: use the same name in package binding/policy/sim.
	BackendBehavior = policysim.BackendBehavior
	// Deprecated: use the same name in package binding/policy/sim.
	ChannelBehavior = policysim.ChannelBehavior
	// Deprecated: use the same name in package binding/policy/sim.
	Fight = policysim.Fight
	// Deprecated: use the same name in package binding/policy/sim.
	Options = policysim.Options
	// Deprecated: use the same name in package binding/policy/sim.
	Pass = policysim.Pass
	// Deprecated: use the same name in package binding/policy/sim.
	Replica = policysim.Replica
	// Deprecated: use the same name in package binding/policy/sim.
	Sim = policysim.Sim
	// Deprecated: use the same name in package binding/policy/sim.
	Status = policysim.Status
	// Deprecated: use the same name in package binding/policy/sim.
	Write = policysim.Write
)

// FastJoined is a channel the bot is in, answered in 100 ms.
//
// Deprecated: use the same name in package binding/policy/sim.
func FastJoined() ChannelBehavior { return policysim.FastJoined() }

// FastOK is an agent that serves a usable card in 100 ms.
//
// Deprecated: use the same name in package binding/policy/sim.
func FastOK() BackendBehavior { return policysim.FastOK() }

// New builds an empty simulation.
//
// Deprecated: use the same name in package binding/policy/sim.
func New(o Options) *Sim { return policysim.New(o) }
