// Package binding decides the status conditions of Agent Kourier's
// Binding objects: given one snapshot of the cluster as a broker sees it,
// Evaluate returns, for every Binding that broker answers for, the exact
// condition list to write and whether a write is due, together with the
// broker's next memory of good generations. Nothing here reads a clock,
// talks to a server or keeps state: time, leadership, the memory and the
// outcome of probes all arrive in the Snapshot. Apply puts a Result back
// into its Snapshot, as a host's writes would (ApplyInPlace without the
// copy); Decode reads the kinds from manifests. EvaluateEach is Evaluate
// for a host that acts on each outcome as it comes and keeps none, so a
// large snapshot costs the snapshot and one outcome at a time.
// EvaluateInto is Evaluate into a ResultBuffer the host keeps, reusing
// the last pass's lists and indexes, so a pass over an unchanged
// snapshot allocates next to nothing.
//
// # The conditions
//
// A Binding the broker serves carries four conditions, always in this
// order: Accepted, BackendReachable, ChannelJoined and Ready. One it does
// not serve carries Accepted and Ready only. Vocabulary lists every
// (status, reason) pair each type may take, with what it means and what
// to do; the validator, the docs and the tests all read that one table.
//
// Accepted is True with OK when the Binding passes the broker's checks,
// the AgentBackend and ChatConnection it names exist, are valid and let
// its namespace use them, and it holds its channel. Otherwise it is False
// with the first reason, in the order InvalidSpec, BackendNotFound,
// BackendRejected, ConnectionNotFound, ConnectionRejected,
// NamespaceNotAllowed, ChannelConflict, and its message lists the
// problems of every reason in that order, joined by "; ". The order is
// that of Accepted's rules in the rule table.
//
// BackendReachable and ChannelJoined classify the last finished probes
// (ProbeResult) of the generation the broker serves; a probe that has
// not finished reads Pending. Their messages are fixed sentences that
// name nothing the probe touched; the raw cause goes to
// Outcome.Causes for the log.
//
// Ready is derived: Accepted's failure when not accepted
// ("Accepted:<reason>", with Accepted's message and generation);
// otherwise the first probe condition that is not True
// ("<Type>:<Reason>"); otherwise True. Its observedGeneration is the
// oldest of what it derives from. Until the prober has listed the Binding
// after a start, Ready is the bare Pending.
//
// Explain is Evaluate with a recorder: each decision returns the rule that
// fired (Rules), and Outcome.Provenance carries it with the raw evidence
// the decision read. Like Causes, it is for the log and for tools only.
//
// # Served generations and channels
//
// The ServedMemory maps each object's UID to its last good generation and that
// generation's spec. A refused edit of a Binding keeps its good generation
// running (Accepted says "generation 2 is invalid, serving generation 1:
// ..."), and the probe conditions stay at the generation served. An
// AgentBackend or ChatConnection that turns invalid keeps running its good
// generation; its Bindings are still served, though Accepted names the
// rejection. Bindings compete for a channel (one channel string on one
// ChatConnection): the oldest by creationTimestamp, then namespace, then
// name holds it. A Binding competes both with the channel of the
// generation it served before this evaluation and with its current one.
//
// # Who writes
//
// A broker answers for the Bindings whose ChatConnection it owns (the
// connection's broker field, of its good generation); a Binding whose
// connection cannot be found belongs to every broker. Only the leader
// writes, only on the crds config route, and never from a stale snapshot.
// A Pending never replaces a good condition of the served generation, so
// a new leader does not wipe what the last one found.
//
// # Privacy
//
// Whoever reads a Binding may own nothing else. No message shows a host,
// address, port, URL, platform error text, or any text of an object in
// another namespace: its spec, its problems, the name of a Binding there.
// The Binding's own references, as written, may be named. An object of
// another namespace that does not allow the Binding's namespace is
// reported the same way whether it is valid or not.
//
// # Decisions
//
// Where the specification is silent, the choices made are listed in
// docs/decisions/binding.md, keyed by rule ID; the rules themselves are
// declared once, each beside the code that decides its condition
// (accepted.go, probe.go, ready.go), and listed in docs/rules.md.
package binding
