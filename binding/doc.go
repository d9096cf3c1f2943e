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
// problems of every reason in that order, joined by "; ". A reason this
// version does not know would read Rejected.
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
// Explain is Evaluate that also fills Outcome.Provenance: for each
// condition, the rule of Rules that decided it and the raw evidence (the
// holder of a contested channel and both creation times, the probe result
// and its generation, the kept condition after a failover, the generation
// still served after a refused edit). Like Causes, it is for the log and
// for tools only.
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
// Where the seed and the decisions file are silent, this package decides:
//
//   - A probe result counts only when its generation is not above the
//     generation served (not merely the Binding's), so a probe of a
//     refused spec never describes the running one; it is reported in
//     Result.IgnoredProbes.
//   - Of several results for one Binding, each probe takes the newest
//     finished observation; equal generations are ordered by content, so
//     the choice never depends on list order.
//   - A memory entry of the Binding's current generation counts as its
//     good generation even when that generation is refused now (a deleted
//     backend, say): the Binding keeps serving it and keeps its channel,
//     as after a refused edit, but without the "generation N is invalid"
//     prefix, since no newer generation was refused.
//   - The ChatConnection the Binding's current spec names decides its
//     owner. When that reference is invalid or names no ChatConnection,
//     the seed says no broker owns the Binding and every leader writes
//     it; every broker must then write the same status, which only "not
//     served" guarantees. So such a Binding is not served even when the
//     memory holds a good generation: for ConnectionNotFound the seed's
//     "no broker owns it" outranks the decisions' "a refused edit of any
//     reason keeps the good generation". A remembered generation also
//     stops running when the ChatConnection it ran on is gone.
//   - A Binding whose current generation fails a check other than the
//     channel does not compete for its current channel, but its Accepted
//     still lists ChannelConflict when an older competitor holds that
//     channel, so fixing the other problem holds no surprise.
//   - A condition the failover rule keeps keeps its status, reason and
//     generation, but carries our fixed sentence for that reason: words
//     someone else put there are not carried on.
//   - A condition whose lastTransitionTime is before the Binding's
//     creationTimestamp was made for an earlier object of the same name:
//     the failover rule does not keep it.
//   - Before the prober has listed a Binding, Ready is the bare Pending
//     unless both probe conditions are already good ones kept by the
//     failover rule; then Ready is derived from them as usual.
//   - Pending messages are plain sentences without "the operator's log
//     has the cause": there is no cause to log.
//   - An empty card fetch observation (no status, no error, no timeout)
//     is the prober's fault: ProbeFailed. Any other HTTP status than 200,
//     the listed ones included 2xx and 3xx, is BackendError. An
//     unrecognised network error kind is Unreachable.
//   - An observation matching two rows of a probe table takes the first
//     (§11.7): for ChannelJoined an error code of a row above RateLimited
//     (is_archived, not_in_channel, channel_not_found, the access errors)
//     decides before an HTTP 429, and the prober's own timeout and failure
//     come after every answer; a non-200 answer without an error code, or
//     ok false without one, is PlatformError; an ok answer that does not
//     say the bot is a member reads as not a member.
//   - Objects sharing a UID, or a kind, namespace and name, are all left
//     out with an ObjectError: which one is real cannot be told without
//     depending on list order. A Binding referring to such an object reads
//     as not finding it. Objects without name, namespace or uid, and
//     negative generations, are left out the same way.
//   - Memory entries that disagree for one UID and generation are dropped
//     (an ObjectError says so); entries of other kinds than the three, or
//     without the spec of their kind, likewise.
//   - Memory above the Binding's metadata.generation marks the outcome
//     stale (Skip Stale: nothing is written) and is kept as it is.
//   - The new Memory keeps entries only for objects in the snapshot, and
//     for Bindings only those this broker answers for.
//   - A standby (not leader) still computes conditions and memory, so it
//     can take over at once; only Write is false. On the ConfigMap route
//     likewise.
//   - Only a Binding document's status is refused on the ConfigMap route;
//     status: null sets nothing and is accepted.
//   - Problem phrases quote the offending value whole when it is the
//     Binding's own (§11.3); a backend's URL is never quoted, being an
//     address. Accepted's message is assembled from the Binding's own text,
//     shown byte for byte, and parts from elsewhere (a referenced object's
//     problems, the name of the Binding holding a channel), each passed
//     through redact.Message on its own; the whole then only gets the line
//     and 1024-byte rule (redact.Fit). A rejected object's
//     own problems are joined by ", " inside their phrase, to keep them
//     apart from the "; " between reasons.
//   - Causes are cut to MaxCauseBytes, so a 10 MiB error cannot flood the
//     log.
//   - Causes stay beside Provenance for now: Provenance names every
//     object a decision read, Causes keep the one-line texts the log
//     already prints. The probe evidence has no finish time, because
//     ProbeResult carries none; its generation is given instead.
//   - Incremental keys every object, memory entry and probe result by
//     UID: setting one replaces the one of its kind with that UID, and a
//     snapshot with two of one kind under one UID is refused
//     (ErrUnkeyable). It does not feed its own memory back: the memory is
//     an input like any object, which the host passes on (SetServed,
//     DeleteServed) when it would pass Result.Memory to the next pass.
//     While Evaluate would report any ObjectError, every change is
//     answered by a full evaluation (Step.Full).
//   - DocumentError (manifest.DocumentError) numbers the documents of a
//     stream from 1, counting every --- section, empty ones included,
//     as an editor shows them; a comment-only header before the first
//     --- is not a document. Decoding is strict: a field the kind does
//     not have is an error naming its path and line, and a second object
//     with the kind, namespace and name of an earlier one is an error
//     (the API server holds one), for every kind in both systems.
package binding
