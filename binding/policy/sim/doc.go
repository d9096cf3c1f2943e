// Package sim is a deterministic, discrete-event simulation of Agent
// Kourier brokers writing Binding status, used to prove the delays the
// Binding documentation promises. Time is a clock.Fake moved by RunUntil;
// events at one instant run in the order they were scheduled; there are no
// goroutines and no sleeps, so every run of a script gives the same
// history.
//
// # The model
//
// The API server is a map of Bindings, AgentBackends and ChatConnections
// by namespace and name. A status write succeeds only when the object
// with that name still has the UID the status was computed for (as a
// write with a UID precondition), and unless the script makes writes of
// that UID fail. A write lands as an API server's server-side apply of
// the Binding's own condition types: ours are merged by type, in the
// order we send them, and another controller's conditions stay where
// they stand (Sim.ApplyOther adds one as that controller would), so a
// writer that counted their place would write forever and the
// simulation would show it. Each Replica reads the whole store every ConfigLook,
// evaluates with binding.Evaluate and decides writes with
// policy.Limits.DecideOutcome every WriterTick, and, while it leads, asks
// policy.Limits.DecidePass every ProberTick and runs the policy.Plan it
// gets: two Bindings at a time, both probes of a Binding side by side,
// each answering after the delay the script chose for its backend and
// channel, or timing out at ProbeTimeout.
//
// A replica shows its own successful writes to itself at once, as the
// API server answered them (Write.Stored), and sees everyone else's changes at
// its next read. When the leader crashes, the first live standby leads
// one lease later with no probe results and an empty writer memory.
//
// # Decisions
//
//   - The two probe results of one Binding are stored together when the
//     slower ends, so a stored result never mixes generations of two
//     passes.
//   - A UID that vanishes mid-pass keeps its slot until its probes end;
//     its result is dropped at the next config read with the rest of the
//     UID's memory.
//   - Writes take Options.WriteLatency (zero by default) and land at the
//     start of the write; the gap counts from its end.
//   - Every change of a Binding, AgentBackend or ChatConnection seen at a
//     config read (new, gone, or a new generation) is a config trigger.
//   - A write applies only the Binding's own condition types, and every
//     condition of those types is the broker's: one it no longer applies
//     is removed, even if someone else's edit put it there. Another
//     controller's apply (Sim.ApplyOther) owns only its own type.
//   - Sim.ForeignEdit replaces the whole list, as an update by someone
//     else would; Sim.ApplyOther adds or replaces one condition in place.
//   - Each replica has its own clock, the world's until Replica.StepClock
//     moves it. Its writer, its prober and its evaluations read that
//     clock (the memory and prober state it keeps hold its instants);
//     every record (Writes, Passes, Fights, History) and whether the
//     prober has listed are on the world's clock.
package sim
