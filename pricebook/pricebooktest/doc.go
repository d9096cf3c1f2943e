// Package pricebooktest builds PriceBooks for tests: a builder with
// options for the fields the rules read, and rapid generators for rate
// strings and whole sets of books.
package pricebooktest
