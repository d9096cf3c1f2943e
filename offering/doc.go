// Package offering evaluates the FinOps operator's Offerings: whether
// each one can be subscribed to (its requirements, loops among them, and
// its prices against the active PriceBook), and whether a deleting one
// may lose its finalizer.
//
// # Readiness and pricing
//
// Ready and PricingResolved are decided by one check and always carry the
// same status and message; on success Ready reads ValidationSucceeded and
// PricingResolved reads PricingResolved. The checks run in a fixed order
// and the first failure decides:
//
//  1. Loops. An Offering from which a loop can be reached along
//     compatibility.requiredOfferings, itself included, reads
//     CircularDependencyDetected. The message shows the walk a depth-first
//     search in spec order takes from it, ending at the Offering it
//     re-enters.
//  2. Each requirement entry in spec order: a failed read is
//     ValidationError, an absent Offering RequiredOfferingNotFound, one
//     whose status.ready is not "True" RequiredOfferingNotReady.
//  3. Pricing. Metered prices need the book whose status.active is true in
//     the snapshot and whose valuationMode is currency (NoActivePricebook
//     otherwise); each meter's rate is parsed and its margin applied
//     (PricebookParseFailed on failure). An Offering with only a fee needs
//     no book.
//
// Once status.resolvedPricing is published it is kept exactly as it is;
// the pricing step then passes without looking at any book.
//
// Evaluate does all of this for a whole snapshot in time linear in
// Offerings plus requirement entries: one strongly-connected-components
// pass finds every Offering that reaches a loop, and because the walk
// from an Offering only ever continues into its first requirement that
// reaches a loop, all walks share their tails and are measured in one
// more pass. No recursion is used, so chains of any length are safe.
//
// # Deletion
//
// A deleting Offering gets Deleting: False with
// DependentSubscriptionsExist while a ready Subscription binds to it, then
// DependentOfferingsExist while a ready Offering requires it,
// ValidationError when the dependents cannot be listed, and otherwise True
// DeletionAllowed with the finalizer dropped in the same result.
// Dependents that are not ready never hold it. Subscriptions arrive as
// Dependent values so this package does not import package subscription,
// which imports it.
//
// # Decisions
//
//   - The delete branch leaves Ready, PricingResolved, status.ready and
//     status.resolvedPricing as they are; only Deleting is decided.
//   - True conditions carry an empty message.
//   - Messages never name another namespace's objects unless the
//     Offering's own namespace wrote the name: a loop path shows an
//     Offering of another namespace only when an Offering of this
//     namespace requires it, and "(an offering in another namespace)"
//     otherwise; dependents in other namespaces are counted, not named.
//   - Loop paths longer than twelve Offerings show the first ten, how many
//     were left out, and the re-entered Offering.
//   - A requirement entry without a namespace or name never resolves:
//     RequiredOfferingNotFound, saying what is missing. It cannot close a
//     loop.
//   - A read failure on a requirement is reported at that entry; the loop
//     walk reads the snapshot as given.
//   - A failure of kind PriceBook (the active book, or the list) is
//     ValidationError at the pricing step; a list failure of kind
//     Subscription or Offering is the deletion guard's ValidationError.
//   - Only the rates of declared meters are parsed: a bad rate no meter
//     uses does not fail the Offering (the book's own Ready reports it).
//   - The subscription meter has no rate behind it and resolves to zero
//     plus its absolute margin. An unknown meter name, a negative margin,
//     both margins at once, or a negative rate are PricebookParseFailed,
//     naming the meter.
//   - A meter declared twice is published once, from its first entry.
//   - resolvedAt is the evaluation instant truncated to whole seconds.
//   - An Offering listing itself does not hold its own deletion.
//   - The finalizer is reported removed only when it is present; a live
//     Offering without it is reported as needing it (FinalizerAdd).
//   - Two Offerings with one identity (a hand-made snapshot) are resolved
//     to the one with the smaller uid when others refer to them.
package offering
