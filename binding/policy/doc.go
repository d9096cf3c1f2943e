// Package policy holds the timing policies that sit beside
// binding.Evaluate in an Agent Kourier broker: when the status writer
// writes, waits or does nothing, how it treats someone else's edits of a
// status, when the prober starts a pass and in which order it probes.
// Everything is a pure function of values the host keeps between ticks;
// nothing here reads a clock, sleeps or starts a goroutine, so a test (or
// the simulation in package sim) can drive a broker's whole life with a
// fake clock.
//
// # Limits
//
// One Limits value carries every delay and size; DefaultLimits returns the
// broker's documented defaults (10 s write gap, 1 s writer tick, 5 min
// backoff cap, 30 s between pass starts, 5 s prober tick, 4 probes at a
// time, 10 s probe timeout, 5 min period, 30 s trigger rate limit, about
// 15 s before the first listing, 10 s config reads, a fight at 3 foreign
// edits in 10 min, 10 quiet minutes to end it). Validate names each field
// that makes no sense. The size of an agent card is not a setting: it is
// binding.MaxCardBytes, the spec's 1 MiB.
//
// # The writer
//
// Each writer tick, for each Binding the engine answers for, the host
// calls Limits.DecideOutcome with the binding.Outcome, the conditions on
// the object, its Memory of the UID and now. That one call folds the
// engine's answer and the writer's timing into the Verdict it returns,
// leaving the outcome as the engine decided it: what the engine refused
// (a stale snapshot, an unchanged status, the ConfigMap route, a standby)
// stays refused, and a write the timing holds reads Skip Held with
// RetryAt. The host applies o.Owned when Verdict.Write is set, then
// records Wrote(o.Owned, end) or Failed(end) on the memory DecideOutcome
// returned (it has already run Observe). The Verdict's Decision carries a
// LogText for the log; a fight shows in Decision.Fight, and FightBegins
// marks the one decision the host logs and counts.
//
// Limits.Decide is the writer's policy itself, on plain condition lists,
// for hosts and simulations that model the writer apart from the engine.
//
// # The prober
//
// The host keeps a ProberState per leadership term, records triggers
// (ProberState.Trigger) as they happen, and calls Limits.NextPass each
// prober tick. When it says Start, Limits.Plan orders the served Bindings
// of the latest evaluation into a pass whose longest duration
// Plan.MaxDuration (and Limits.MaxPassDuration, the same bound) computes in advance.
//
// # Leadership
//
// A standby calls DecideOutcome like a leader and gets no write (Skip
// NotLeader; Decide alone answers None): it computes but
// never writes. A new leader starts with empty probe results, an empty
// writer memory and a fresh ProberState with a TriggerLeaderStart; the
// engine keeps a good status of the served generation instead of Pending,
// so the computed conditions equal the object's and the
// writer has nothing to do until the first results differ.
//
// # Scenarios
//
// conformance.RunBinding is the scenario runner for the binding system:
// it evaluates the scenario and adds the writer's decision, wait, fight,
// fight report and foreign edit to each Binding's outcome, with the
// writer's memory read from the file's `writer:` block (its shape is
// scenario.Writer). It adds one outcome of kind Prober: the prober's
// verdict at the scenario's now from its `prober:` block
// (scenario.Prober) and the plan
// of a pass over the evaluated Bindings, so another implementation can
// check its schedule against the same vectors.
//
// # Decisions
//
// Where the specification leaves a choice open, this package decides:
//
//   - A Wait's time and a pass's due time are exact instants, to the
//     nanosecond of the inputs: the last write's end
//     plus the wait, the last pass's start plus the spacing. Nothing is
//     rounded to a tick; a host acts at its first tick at or after them.
//   - Whether a write is due is judged on the Binding's own condition
//     types, in their order. Another controller's
//     conditions, before, among or after ours, never make a write due, so
//     a host may pass the object's whole list and the engine's whole
//     computed list. Ours out of their order are a change: an apply puts
//     them in the order it sends them.
//   - The wait before a write counts from the end of the last attempt,
//     successful or not: one gap normally, Backoff().Wait(failures) after
//     failed attempts (one gap, then doubling, capped). A success resets
//     the count.
//   - A foreign edit is judged on the Binding's own condition types only:
//     another controller's conditions never count. It needs a memory of a
//     write to this UID, so a new leader or a new UID does not call any
//     status foreign; it just writes the computed one if it differs. The
//     host must show its own writes in WriterInput.Object.
//   - The same foreign status is counted once; a successful write re-arms
//     the count, so an editor that keeps applying one status is seen each
//     time it reapplies it. An edit's time is the decision that first saw
//     it: the writer cannot know when it was made.
//   - During a fight the k-th put-back (the one for the edit that began
//     the fight is the first) waits Backoff().Wait(k) from the last write:
//     10 s, 20 s, 40 s, … up to the cap. Writes of the
//     engine's own changes keep the normal gap; a failure backoff longer
//     than the fight spacing holds. Fight stays true on every decision of
//     the UID until Quiet passes after the last foreign edit; FightBegins
//     is set on one decision of a leader only.
//   - An edit counts toward a fight while it is less than FightWindow
//     old, and a fight ends once a full Quiet has passed since the last
//     foreign edit. An edit exactly FightWindow old no
//     longer counts.
//   - With no memory of a write (a new leader, a new UID), a write is not
//     held back by a gap: the writer cannot know when
//     another replica wrote last.
//   - A last write that ends after now, or a last pass that starts after
//     now (a clock stepped back), counts from now: the step neither allows
//     a write within a gap nor stalls the writer for its size. Foreign edit
//     times after now still count toward a fight.
//   - A zero now decides nothing (LogNoTime) rather than comparing
//     against the year 1; DecideOutcome refuses it with
//     conditions.ErrZeroNow.
//   - DecideOutcome hands the writer the Binding's own conditions only
//     (Owned, on both sides), and never turns an outcome the engine did
//     not want written into a write: where the writer alone would write
//     (another controller's conditions moved), the Decision it returns
//     reads None.
//   - Precedence of why not: Stale, Unchanged, ConfigMapRoute, NotLeader
//     (decided by binding.Evaluate, in that order), then Held.
//   - A prober that has run no pass is due at once, after NotBefore. Each
//     trigger kind is rate limited from the start of the last pass that
//     covered it, and a pass covers every trigger recorded before its
//     start. When a trigger and the period fall due together, the trigger
//     is named as the cause.
//   - Concurrency must be a multiple of two: a Binding's two probes run
//     side by side and its slot frees when both end, so the bound
//     ceil(n/(Concurrency/2)) × ProbeTimeout holds for any mix of delays.
//   - The plan probes served Bindings with a UID, by namespace, name and
//     UID; one listed twice is probed once, at its highest generation. A
//     Binding whose UID disappears mid-pass keeps its slot until its
//     probes end; its result is then dropped (the engine ignores results
//     for UIDs it does not see, and hosts drop memory for gone UIDs).
//   - Limits.Validate refuses zero, negative and over-a-year durations.
//   - A scenario Binding the engine does not answer for (another
//     broker's) gets the decision "none".
//   - In a scenario's writer block the leader comes from broker.leader,
//     and memory listed under another UID than the Binding's is not used:
//     a Binding made again starts with nothing.
package policy
