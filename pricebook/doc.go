// Package pricebook evaluates the FinOps operator's PriceBooks: it turns
// each book's decimal rates into integer micro-units, elects the single
// book that holds the cluster's active slot, and renders the pricing
// document OpenCost reads.
//
// # Readiness
//
// A book's Ready condition depends on the book alone. A currency book is
// parsed field by field in the fixed order of Field (cpuHour first,
// networkGiB last) and reports the first rate that does not convert, as
// rate "<field>" ("<value>"): <problem>. A book of any other valuation
// mode is ready without parsing. status.ready mirrors Ready.
//
// # The active slot
//
// Elect picks one winner from all books in a single scan. A book competes
// in the best tier it qualifies for: the annotation
// finops.stakater.com/active with the exact value "true"; otherwise the
// stored status.active; otherwise any book. Within the best non-empty
// tier the newest creationTimestamp wins, then the lower namespace, then
// the lower name. Readiness is not consulted, so a broken rate shows up as
// a failure rather than as a silent change of prices.
//
// The Active condition records changes of the flag only: Activated when a
// book gains the slot, Demoted when it loses it. Between changes it is
// left as it was, only its message redacted again (a secret someone put
// there is not written back), and a book that never held the slot has
// none.
// status.activePricing is the rendered document on the book that is both
// active and ready, and absent everywhere else.
//
// # The OpenCost document
//
// Document renders the winner: each rate string as written ("0" when
// unset), networkGiB in all three egress keys, provider "custom" and a
// description naming the book. Evaluate pushes it only when the winner is
// ready, and says whether it differs from the document OpenCost holds.
//
// What the engine decides where the operator is silent is in
// docs/decisions/pricebook.md; the conditions and reasons are in Vocabulary.
package pricebook
