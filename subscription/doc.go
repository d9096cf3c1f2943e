// Package subscription evaluates the FinOps operator's Subscriptions: the
// four activation gates, family coverage, the parent-loss policies,
// one-way deactivation, the delete branch, and what a charge collection
// run writes (status.costs, CostsResolved and the finalizer release).
//
// # Using it
//
// Gather a Snapshot (every Subscription and Offering with its status, the
// other objects a targetRef may name, the reads that failed, and the
// collection run if one happened now) and call Evaluate. Each Outcome
// carries the complete status to write, whether a write is due, whether
// the finalizer goes, and whether the host should retry on a growing
// delay. Evaluating again on the written statuses until nothing changes
// gives the settled state: a cascade moves one level per evaluation, as
// it does in the operator.
//
// # The gates
//
// Every reconcile of a Subscription that is neither being deleted nor
// deactivated runs these checks in order; the first failure is the Ready
// reason:
//
//  0. spec.parent naming the Subscription itself (CircularDependencyDetected)
//     and spec.lifecycle.targetRef naming it (TargetIsSelfReference);
//  1. Offering: found (OfferingNotFound) and ready (OfferingNotReady);
//  2. Parent: found, not deactivated, ready, and a parent chain that
//     reaches a root (ParentSubscriptionNotFound, ...Deactivated,
//     ...NotReady);
//     then status.compatibilityRoot is stamped, once;
//  3. Compatibility: every required Offering held by an active relative
//     outside the Subscription's own subtree (CompatibilityRequirementNotMet);
//  4. Target: the targetRef object exists (TargetNotFound).
//
// A read that fails is ValidationError naming the gate, and the Outcome
// asks for a Retry. Once activated, a failing gate only holds Ready at False:
// Active stays True and billing goes on, except for the three ways an
// active Subscription ends (parent lost under Deactivate, coverage lost,
// target deleted), which write deactivatedAt, Active=False with the cause
// and Ready=False ValidationSucceeded, for good.
//
// # Families
//
// Coverage is computed for the whole snapshot at once: one iterative walk
// numbers the parent forest so that a subtree is an interval of entry
// numbers, and each (family, Offering) pair keeps the sorted entry numbers
// of its active Subscriptions. A requirement is covered when the count of
// providers exceeds the count inside the asking Subscription's interval,
// two binary searches. The cost is n log n overall whatever the family
// shapes, and parent loops of any length end the walk instead of hanging
// it.
//
// # Admission
//
// Validate, ValidateCreate and ValidateUpdate check what the API server
// and the operator's create-only webhook refuse, with the CRD's messages
// word for word, so a host or a test can reject a manifest before it is
// evaluated. Evaluate never rejects: what slips past admission is held
// at a condition instead.
//
// # Decisions
//
// Where the operator's documentation is silent, this package decides:
//
//  1. The two self-reference checks run before the Offering gate: they
//     need no read, cannot clear by waiting, and the status-conditions
//     reference files both under the Offering gate.
//  2. A parent loop longer than one holds every member at
//     ParentSubscriptionNotReady; a parent that is ready but whose own
//     chain loops or breaks off holds the child there too, since no root
//     can be stamped.
//  3. A family is the set of Subscriptions whose compatibilityRoot, as the
//     snapshot holds it, is the same; a member counts as a provider only
//     once stamped, as in the operator's index. Descendants follow the
//     parent references present in the snapshot.
//  4. A reference without a namespace or name never resolves: offeringRef
//     gives OfferingNotFound, parent gives ParentSubscriptionNotFound, a
//     required Offering is uncovered. A targetRef without apiVersion, kind
//     or name is ValidationError (the read cannot be made), never the
//     terminal TargetNotFound.
//  5. Parents and targets may be in any namespace; a target of any kind is
//     checked for existence only, against the objects in the snapshot.
//  6. Messages name only what the Subscription's own spec and its
//     Offering's requirement list wrote; nothing of another object's
//     status is copied.
//  7. A Subscription whose family root would be stamped from an empty or
//     shared metadata.uid is held at ValidationError. A namespace/name
//     listed twice is a snapshot error: none of its copies is evaluated.
//  8. Once Active carries Orphaned it keeps that reason for as long as
//     the Subscription stays active.
//  9. activatedAt and deactivatedAt are the evaluation instant truncated
//     to whole seconds, the precision the API server stores.
//  10. A deactivated Subscription is re-stated, not re-validated: Ready
//     False ValidationSucceeded and its Active condition as it was, with
//     the current generation. An Active condition that is not one of the
//     terminal False pairs (hand-written or corrupt) is dropped rather
//     than repeated, and a CostsResolved outside the vocabulary is not
//     kept either: the engine never writes a pair it cannot validate.
//  11. The collection run reads the snapshot's statuses, like the reconcile:
//     a Subscription activated by this evaluation is not priced until the
//     next run, and the Deactivated release gate needs deactivatedAt in
//     the snapshot. A never-activated Subscription has nothing to settle:
//     its finalizer goes once it is deactivated. An activated one needs
//     its Offering readable, minPeriods reached at the scheduled hour, and
//     the deactivation hour settled (before the scheduled hour, or before
//     the run's allocation boundary for usage-billed Subscriptions).
//  12. CostsResolved follows the run's result: written when it produced
//     at least one bucket without error; otherwise the condition already
//     there stays as it is. status.costs is computed here for fee-only
//     Subscriptions whose Offering has a fee; usage-billed ones keep the
//     buckets the host wrote.
//  13. A deleting Subscription whose metadata.finalizers is empty is taken
//     to hold ours (a deleting object always holds some finalizer); one
//     that lists others but not ours has nothing for us to remove.
//  14. A negative metadata.generation is written as observedGeneration 0.
//  15. ParentSubscriptionDeactivated is not marked terminal: a parent
//     deleted and created again under the same name is a new, possibly
//     ready parent, and the waiting child then activates.
//  16. Retry is set only for ValidationError (a failed read, retried
//     on a growing delay); every other holding reason clears on a watch
//     event and needs no retry.
//  17. An active Subscription whose parent is gone and whose root was
//     never stamped (the legacy case) is held at ValidationError and
//     retried, staying active and outside every family.
//  18. The webhook's wording for its two rejections is not documented;
//     ValidateCreate names the reason and says why in a few words.
package subscription
