// Package binding decides the status conditions of Agent Kourier's
// Binding objects. Given one snapshot of the cluster as a broker sees it,
// Evaluate returns, for every Binding that broker answers for, the exact
// condition list to write, whether a write is due, and the broker's next
// memory of good generations. Nothing here reads a clock, talks to a
// server or keeps state: time, leadership, the memory and the probe
// results all arrive in the Snapshot.
//
// Which call to use:
//   - Evaluate: fresh values for every Binding.
//   - EvaluateEach: one outcome at a time, for a host that keeps none.
//   - EvaluateInto: into a ResultBuffer the host keeps, so a pass over
//     an unchanged snapshot allocates next to nothing.
//   - NewIncremental: a host that is told of each change and re-decides
//     only what the change can reach.
//   - Explain: Evaluate with a recorder; Outcome.Provenance names the
//     rule that fired and the evidence it read, for logs and tools.
//   - Apply and ApplyInPlace put a Result back into its Snapshot, as a
//     host's writes would; Decode reads the kinds from manifests.
//
// # The conditions
//
// A served Binding carries Accepted, BackendReachable, ChannelJoined and
// Ready, in that order; one that is not served carries Accepted and Ready.
// Vocabulary lists every (status, reason) pair each type may take, with
// its meaning and the action it asks for, and Rules lists the rule behind
// each; docs/vocabulary/binding.md and docs/rules.md are generated from
// them. Accepted reports the first failing check in rule order and lists
// every problem in its message. The probe conditions classify the last
// finished probes of the served generation in fixed sentences; the raw
// cause goes to Outcome.Causes for the log. Ready is derived from the
// other three, and its observedGeneration is the oldest it derives from.
//
// # Served generations, channels, writers
//
// ServedMemory keeps each object's last good generation. A refused edit
// keeps the good generation running, and Accepted says which one is
// served. Bindings compete for a channel on a ChatConnection; the oldest
// (creationTimestamp, then namespace, name and UID) holds it. A broker
// answers for the Bindings whose ChatConnection it owns; only its leader
// writes, never from a stale snapshot, and a Pending never replaces a
// good condition of the served generation.
//
// # Privacy
//
// No message shows a host, address, port, URL, platform error text, or
// any text of an object in another namespace; the Binding's own
// references may be named as written.
//
// # Decisions
//
// Where the specification is silent, the choices are in
// docs/decisions/binding.md, keyed by rule ID.
package binding
