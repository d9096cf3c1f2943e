// Package system declares what a tool of this module needs to know about
// a system of kinds, as one plain value: a System holds the kinds the
// system reads (Kind: group, version, plural, short names, vocabulary,
// whether its status is computed, its finalizer), its rules, its CRDs,
// the function that evaluates a snapshot given as a scenario file and,
// optionally, a generator of snapshots. A tool (the scenario runner, the
// conformance driver, explain's kind lookup, the commands) takes the
// systems it is given and knows none of them by name.
//
// A system's value lives in its tooling package, next to its generators
// (bindingtest.System, finopstest.System for the two seed systems), so
// that the engine packages a host imports stay free of package testing.
// An author of another kind declares one value the same way and hands it
// to the same tools.
//
// Validate checks values against the contract, Runners turns them into
// scenario runners, Find picks one by name and ResolveKind reads a
// kind's name as kubectl does; PrinterColumns reads a kind's table
// columns from its CRD.
//
// A few fields are optional extensions a tool uses when they are set and
// does without otherwise, never asking which system it has: Check (a
// manifest's problem at its line), References (objects of other kinds
// an evaluation reads), Stream (the system's own reading and evaluation
// of a large input, for condengine eval) and Cluster (how it is
// evaluated from a live cluster's objects alone, for kubectl condengine).
package system
