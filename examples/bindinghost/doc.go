// Package bindinghost is an example host operator for Agent Kourier
// Bindings, built on controller-runtime: it keeps a binding.Incremental
// told of every change to the Bindings, AgentBackends and ChatConnections,
// lets the writer policy of binding/policy decide when to write each
// Binding whose outcome moved, and carries out the outcome's write plan
// (writeplan.For, sent with ctrlplan.Carry) under the field manager
// agent-kourier, recording one Event per condition transition when it
// has an event recorder (WithEventRecorder).
//
// # Using it
//
// With a manager, set the host up with it: it watches the three kinds
// through the manager's cache, runs only on the elected leader
// (NeedLeaderElection is true) and makes a pass every Limits.WriterTick:
//
//	h, err := bindinghost.New(mgr.GetClient(), policy.DefaultLimits(), "")
//	if err != nil { ... }
//	if err := h.SetupWithManager(mgr); err != nil { ... }
//
// Without a manager (tests, the e2e suite, a one-shot tool), call RunOnce
// with any client.Client and the instant to evaluate at:
//
//	h, _ := bindinghost.New(c, policy.DefaultLimits(), "")
//	report, err := h.RunOnce(ctx, time.Now())
//
// The host does not probe agents or chat platforms: a prober hands it
// finished probe results with RecordProbe. Until it has some, served
// Bindings read Pending, which is what a broker shows before its first
// pass.
//
// # How changes flow
//
// The first pass lists the three kinds and builds the evaluator with
// binding.NewIncremental, which evaluates every Binding; the writer policy
// then looks at every one. Every later pass tells the evaluator only of
// what changed, each change a Set or Delete call whose Step names the
// outcomes it re-evaluated:
//
//   - objects: a watching host (SetupWithManager, or Watch with any
//     informers and reader) has event handlers on the informers of the
//     three kinds. A handler only notes the kind and namespaced name in
//     a queue; the pass reads each noted object from the cache as it is
//     then and hands the evaluator the ones whose UID or resourceVersion
//     differ from what it holds (a name whose UID changed is a delete and
//     an add). A host that does not watch lists the three kinds at every
//     pass and hands over the differences found the same way, so tests
//     and the e2e suite run the same per-change path;
//   - probe results recorded with RecordProbe since the last pass:
//     SetProbes;
//   - the pass's instant: SetNow; the broker's state (leadership, start,
//     the prober's listing): SetBroker, a full evaluation;
//   - the memory of good generations: a full pass reads the memory the
//     pass before returned, so each pass hands the evaluator, with
//     SetServed or DeleteServed, the entries the last pass's Steps moved;
//   - the host's own writes: a Binding written in the last pass is shown
//     to the evaluator with the status written, while the cache still
//     holds it at the resourceVersion the write started from.
//
// Everything runs on the pass's goroutine, under the host's lock: the
// evaluator is never used concurrently, and an event handler never waits
// for a pass. After each pass the outcomes and the memory are those a
// full binding.Evaluate of the same objects, memory, probes and instant
// returns; the tests check it pass by pass.
//
// The writer policy (policy.Limits.DecideOutcome) runs on the Bindings a
// Step re-evaluated since the last pass and on every Binding whose
// outcome the engine would write (a write the writer holds back, or one
// that failed), whose timing moves with the clock. Every other Binding's
// outcome and object are as at the last decision, for which the policy
// answered no write and would answer it again, so the writer's timing is
// the one a pass over every Binding gives (the writer's memory of a fight
// gone quiet is cleared at the Binding's next decision rather than at
// every pass, which decides the same). Report.Reevaluated counts the
// outcomes a pass computed: none when nothing changed.
//
// What it saves, from BenchmarkHost (10,000 Bindings, the fake client,
// one run on two shared cores): a pass after one Binding was edited,
// told by an informer, took 2.4 ms, half of it the fake client's status
// apply; a pass that lists and evaluates everything took 828 ms, about
// 350 times as long. A host that lists at every pass still pays the
// listing (805 ms there), which is why a manager's host watches.
//
// # What it keeps
//
// Per broker process:
//
//   - the binding.Incremental, which keeps its own copy of every object,
//     outcome and memory entry it was told of or computed;
//   - a copy of each object of the three kinds as last told to the
//     evaluator, by UID, and the UID in force per namespaced name: the
//     pass compares UIDs and resourceVersions with them, and the writer
//     reads a Binding's current conditions and resourceVersion from them.
//     They are copies, so no listing is kept alive by an object in it;
//   - each Binding's outcome by UID, and the UIDs whose outcome is still
//     to be decided or whose write the engine wants;
//   - the memory of good generations (binding.ServedMemory), as the last
//     pass left it and as the evaluator last read it;
//   - per Binding UID: the latest probe result, the writer's memory, and,
//     after a write, the resourceVersion it started from and the
//     conditions written (until a read shows the object moved on).
//
// All of it is keyed by UID, so a Binding deleted and created again
// under the same name starts from nothing. Each request of a write is
// guarded by a resourceVersion (the first by the one of the object it was
// computed from, each later one by the one the previous request
// answered), and the API server refuses it if the object has changed
// since, so a write computed for a deleted Binding can never land on its
// successor. (A UID would not do: the status subresource takes
// metadata.uid from the stored object and ignores the one sent; the e2e
// suite shows both on a real API server.)
//
// # Decisions
//
//   - Only the Binding's own condition types are in the apply
//     configuration: another controller's conditions on the same object
//     stay owned by that controller. A type of ours that the outcome
//     dropped and another field manager also owns (an older broker's
//     update, a kubectl edit) is removed by the plan's guarded JSON patch
//     before the apply, since an apply alone would only give up our share
//     of it.
//   - Events are recorded after the write succeeded, one per condition
//     whose status moved (writeplan.Transitions,
//     ctrlplan.RecordTransitions): a Warning when it became False. A
//     write that failed records none; its retry records them.
//   - The writer policy sees the Binding's own conditions only. The API
//     server merges a map-list in its own order (an existing condition of
//     another controller stays before ours), which the engine's merge,
//     putting ours first, would otherwise read as a change to write at
//     every gap, forever.
//   - The apply forces ownership, so a status someone else edited is put
//     back (once per edit, spaced during a fight, as the writer policy
//     says) rather than failing with a conflict.
//   - A cached client may list an object as it was before the host's own
//     write. The host remembers the resourceVersion each write started
//     from; an object still at that version is read as carrying the
//     written status, so the host's own write never looks like a foreign
//     edit.
//   - A write ends, for the writer policy, at the instant RunOnce was
//     given: the host's time is the caller's.
//   - The evaluator is built again from a full listing, and every Binding
//     decided, when its state may be incomplete: after an error reading
//     objects (the changes read before it may be half told), when an
//     informer reports an object it cannot name, and when the host
//     becomes the leader again (SetLeader(true) after false; under a
//     manager a new leader starts with a new pass anyway). The writer's
//     memory and the memory of good generations are kept across.
//   - A watching host reads the object when the pass runs, not the copy
//     in the event: a reconciler's way, which never hands the evaluator
//     an older version than one it has, and folds many events of one
//     object into one change.
//   - While an object cannot take part in the evaluation (ObjectErrors:
//     a missing name, a UID or name used twice), the evaluator answers
//     every change with a full evaluation; the host then lists and
//     evaluates everything once per pass instead, as it did before it
//     worked per event.
//   - A listing with an object without a UID cannot be kept by UID (the
//     API server always sets one): such a pass is a full binding.Evaluate,
//     and so is each next one until every object has a UID.
package bindinghost
