// Package pricebook evaluates the FinOps operator's PriceBooks: parsing
// each book's rates into micro-units, electing the one book that holds
// the active slot, and rendering the OpenCost pricing document.
package pricebook
