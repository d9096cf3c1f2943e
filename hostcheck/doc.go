// Package hostcheck checks a host, the controller that carries the
// engine's answers to the API server, where controller bugs live: in a
// cache that lags, events that come late, twice or never, writes that
// conflict or time out after landing, crashes between two writes, and a
// lease that moves while the deposed leader keeps running.
//
// A test hands Check a constructor of its reconcile.Reconciler and the
// system the host belongs to, as a value: Binding(), FinOps(), or
// FromSystem(sys, scheme) for a system.System of one kind. The harness
// draws worlds and edits from the system, runs two replicas of the host
// against a store with the API server's semantics for its kinds
// (controller-runtime's fake client with server-side apply over typed
// condition lists, resourceVersion preconditions, the status
// subresource), injects the faults of a drawn schedule, and judges every
// write against the engine: the rules are listed by Rules, each with a
// stable ID. When a schedule breaks one, the harness shrinks it (fewer
// events, fewer objects) and prints it as a numbered list with the write
// that broke the rule, the rule, the engine's expected value and the
// seed that replays it:
//
//	go test -run TestMyHost -hostcheck.seed=17
//
// The host reads only through the client it is given (the replica's
// cache) and asks Env for the time, the lease and what the system
// observed besides the objects (probe results, the last charge
// collection run, an observed block); the harness owns them all.
//
// # Systems
//
// A System is a plain value: its kinds (which the host writes the status
// of, their vocabularies and finalizers), its scheme, field manager and
// type converter, and NewWorld, which draws one schedule's World: the
// objects, what earlier writers left, the users' and other controllers'
// changes, the observer's steps, failing reads and the engine's answer
// (Expect). The harness knows no system by name; an author of a kind of
// their own adapts its system.System with FromSystem, or declares a
// System for several kinds.
//
// # Budget
//
// The default budget is DefaultSchedules schedules of DefaultSteps
// events; -hostcheck.schedules raises it for a soak, and -hostcheck.from
// starts it at a later seed.
//
// # Decisions
//
//   - After the schedule, faults and edits stop and the leader works its
//     queue (relisting first only when an event was lost), within a
//     budget of virtual time bounded by the engine's own settle: how many
//     reconciles a host spends in it (polling, idle passes, held writes)
//     is not counted. Reads that still fail
//     keep failing while it works what is due at once, then work again
//     with no event: a host comes back after a failed read on its own.
//     The stored status must then equal the engine's answer for the
//     final world. The broker's memory of served generations depends on
//     which states a host happened to evaluate; where the answer with the
//     memory of the store's whole history, or of a broker that served an
//     older generation the store held, differs from the one a fresh
//     broker builds, the Binding is not held to the fresh answer.
//   - The queue is controller-runtime's: one entry per name, a reconcile
//     drops a later requeue pending for its name, and its delays run on
//     a monotonic clock, so a jump of the clock moves them too.
//   - A finalizer's release is judged on the world as stored when the
//     pass began or as the replica's cache held it: a release either
//     allows stands.
//   - The writer timing rule checks the gap, the failure backoff and,
//     during a fight over the status, the spacing of put-backs, each
//     against one incarnation's writes and the foreign edits it could
//     have seen; only a system whose host follows the writer policy
//     (System.WriterPolicy) is held to it.
//   - A FinOps host gets the last charge collection run from
//     FinOpsCollection and hands it to every pass; a Subscription's
//     finalizer goes only on a run that settled its charges.
package hostcheck
