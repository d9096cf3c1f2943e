// Package subscription evaluates the FinOps operator's Subscriptions: the
// four activation gates, family coverage, the parent-loss policies,
// one-way deactivation, the delete branch, and what a charge collection
// run writes (status.costs, CostsResolved and the finalizer release).
//
// # Using it
//
// Gather a Snapshot: every Subscription and Offering with its status, the
// other objects a targetRef may name (Objects), the reads that failed,
// and the collection run if one happened now. Evaluate returns one
// Outcome per Subscription with the complete status to write, whether a
// write is due, whether the finalizer goes and whether to retry:
//
//	res, err := subscription.Evaluate(snap)
//	for _, o := range res.Subscriptions {
//		if o.Write {
//			// write o.Status with the status subresource
//		}
//	}
//
// A cascade moves one level per evaluation, as in the operator. Apply
// carries a result out on the Subscriptions, and Settle evaluates and
// applies until nothing changes, for tests and simulations.
//
// # The gates, in order
//
//  0. spec.parent or spec.lifecycle.targetRef naming the Subscription
//     itself (CircularDependencyDetected, TargetIsSelfReference);
//  1. Offering: found and ready;
//  2. Parent: found, not deactivated, ready, with a stamped root; then
//     status.compatibilityRoot is stamped, once;
//  3. Compatibility: each required Offering held by an active relative
//     outside the Subscription's own subtree;
//  4. Target: the targetRef object exists.
//
// The first failure is the Ready reason; a failed read is ValidationError
// and asks for a retry. An active Subscription keeps billing while a gate
// fails, except for the three ends (parent lost under Deactivate,
// coverage lost, target deleted), which deactivate it for good.
//
// Validate, ValidateCreate and ValidateUpdate check what the API server
// and the operator's webhook refuse; Evaluate never rejects.
//
// The conditions and reasons are in Vocabulary (docs/vocabulary in the
// module); what the engine decides where the operator is silent is in
// docs/decisions/subscription.md, keyed by rule ID.
package subscription
