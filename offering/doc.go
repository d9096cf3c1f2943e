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
// What the engine decides where the operator is silent is in
// docs/decisions/offering.md. Each rule is declared once (Rules), beside
// the code that returns it; Vocabulary is read from the rules, and
// Explain is Evaluate recording the rule that fired and what it read.
package offering
