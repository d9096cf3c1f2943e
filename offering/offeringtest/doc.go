// Package offeringtest builds Offerings for tests: a builder with options
// for the fields the rules read, and rapid generators of requirement
// graphs with loops, missing entries and mixed readiness.
package offeringtest
