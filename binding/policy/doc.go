// Package policy holds the timing policies that sit beside
// binding.Evaluate in an Agent Kourier broker: when the status writer
// writes, waits or does nothing, how it treats someone else's edits of a
// status, when the prober starts a pass and in which order it probes.
// Everything is a pure function of values the host keeps between ticks;
// nothing here reads a clock, sleeps or starts a goroutine, so a test (or
// the simulation in package sim) can drive a broker's whole life with a
// fake clock.
//
// # Use
//
// Take DefaultLimits (the broker's documented delays and sizes) and check
// any change with Limits.Validate.
//
// Writer: on each writer tick, for each Binding the engine answers for,
// call Limits.DecideOutcome with the binding.Outcome, the conditions on
// the object, the Memory of its UID and now. The Verdict says whether to
// write; what the engine refused stays refused, and a write the timing
// holds reads Skip Held with RetryAt. When Verdict.Write is set, apply
// o.Owned and record Wrote(o.Owned, end) or Failed(end) on the returned
// memory. Decision.LogText is for the log; FightBegins marks the one
// decision to log and count when someone keeps editing the status.
// Limits.Decide is the same policy on plain condition lists.
//
// Prober: keep a ProberState per leadership term, record triggers with
// ProberState.Trigger, and call Limits.DecidePass each prober tick,
// keeping the state it returns. When it says Start, record
// ProberState.Started, and Limits.Plan orders the served Bindings into a
// pass whose longest duration Plan.MaxDuration gives in advance.
// Limits.NextPass is the same decision without the state to keep.
//
// A standby calls DecideOutcome like a leader and gets no write (Skip
// NotLeader). A new leader starts with empty probe results, an empty
// writer memory and a fresh ProberState with TriggerLeaderStart; the
// engine keeps a good status instead of Pending, so nothing is written
// until a result differs.
//
// bindingtest.Run runs the scenario corpus with this policy: the
// writer's decision for each Binding and the prober's verdict and plan,
// read from a scenario's writer: and prober: blocks.
//
// The choices made where the specification is silent (exact instants, a
// clock stepped back, foreign edits and fights, trigger rate limits, the
// plan's order) are in docs/decisions/writer-policy.md.
package policy
