// Package finopshost is an example host for the FinOps operator's status
// logic, built on controller-runtime: each pass lists PriceBooks,
// Offerings and Subscriptions (and the objects their targetRefs name),
// reconciles them all at once with finops.Evaluate, and writes what
// changed: statuses with a server-side apply on the status subresource
// under the field manager finops-operator, finalizers with an optimistic
// merge patch, and the OpenCost pricing ConfigMap when the elected
// PriceBook's document changed.
//
// Use it with a manager (mgr.Add(h); it runs only on the leader) or
// without one:
//
//	h, _ := finopshost.New(c, "finops-operator-system")
//	report, err := h.RunOnce(ctx, time.Now())
//
// One pass is one reconcile of every object, as in the operator: a change
// travels one level of a Subscription family per pass, and passes repeat
// until nothing changes (Report.Changed).
//
// A reconciler that runs one pass per request returns
// Report.RequeueAfterOf for the request's name: only the objects that
// asked for a retry come back, first at the engine's RetryAt, then at a
// doubling wait while they keep asking (Host.MaxRetryDelay caps it).
//
// # Decisions
//
//   - The kinds are listed as typed objects when the client's scheme
//     registers them (a cache then converts each object once, when it
//     arrives), and through unstructured lists otherwise.
//   - An object that asks for a retry pass after pass backs off: the
//     engine's RetryAt is the first wait, and each pass at or after the
//     due instant that finds it still asking doubles the wait. A held
//     deletion or an Offering that is not ready would otherwise bring a
//     pass every second for as long as it lasts.
//   - A status is applied with the kind's own condition types only, and
//     not at all when it differs from the object's only by where the API
//     server keeps another controller's conditions.
//   - A pass whose list of PriceBooks or Offerings failed comes back on
//     its own (Report.ReadRetryAt), with the same backoff: the engine
//     leaves the kind it could not list out of its answer, so no outcome
//     asks for those objects.
//   - A targetRef whose read fails for another reason than NotFound is
//     passed to the engine as a failed read, so it reads ValidationError
//     and is retried, never TargetNotFound (which would end the
//     Subscription for good).
//   - The SubscriptionChargeCollection run is handed in with
//     SetCollection, and every pass evaluates with the last run until a
//     newer one comes: the engine applies a run again without changing
//     what it wrote, and a pass that crashed between the status and the
//     finalizer finishes the release on the next pass. A deleted
//     Subscription's finalizer goes only on a run that settled its
//     charges, after the status that says so.
//   - CostJobs and FinOpsProviders are out of this example's scope: the
//     engine decides no status for them.
package finopshost
