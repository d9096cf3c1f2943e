// Package bindinghost is an example host operator for Agent Kourier
// Bindings, built on controller-runtime: it lists Bindings, AgentBackends
// and ChatConnections, asks binding.Evaluate what each Binding's status
// must be, lets the writer policy of binding/policy decide when to
// write, and writes with a server-side apply on the status subresource
// under the field manager agent-kourier.
//
// # Using it
//
// With a manager, add the host as a runnable; it runs only on the elected
// leader (NeedLeaderElection is true) and looks for work every
// Limits.WriterTick:
//
//	h, err := bindinghost.New(mgr.GetClient(), policy.DefaultLimits(), "")
//	if err != nil { ... }
//	if err := mgr.Add(h); err != nil { ... }
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
// # What it keeps
//
// Per broker process: the memory of good generations (binding.ServedMemory),
// the latest probe result per Binding UID, and the writer's memory per
// UID. All three are keyed by UID, so a Binding deleted and created again
// under the same name starts from nothing. Each write also carries the
// resourceVersion of the object it was computed from, and the API server
// refuses it if the object has changed since, so a write computed for a
// deleted Binding can never land on its successor. (A UID would not do:
// the status subresource takes metadata.uid from the stored object and
// ignores the one sent; the e2e suite shows both on a real API server.)
//
// # Decisions
//
//   - Only the Binding's own condition types are in the apply
//     configuration: another controller's conditions on the same object
//     stay owned by that controller.
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
package bindinghost
