// Package offering evaluates the FinOps operator's Offerings: requirement
// checks, loop detection over the requirement graph, pricing resolution
// against the active PriceBook, and the deletion guard.
package offering
