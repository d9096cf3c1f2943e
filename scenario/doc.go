// Package scenario reads the conformance vectors of condengine: YAML files
// that each hold one moment of one system (the objects as the API server
// has them, the broker's memory, probe results, failing reads, a charge
// collection run) and the conditions and status fields that must come out.
//
// The format is a public contract, documented in docs/scenarios.md; keys
// are only ever added. Parse refuses unknown keys so a misspelt
// expectation fails loudly instead of passing unchecked.
//
// The package knows no system: a Runner per system (conformance.RunBinding,
// conformance.RunFinOps) turns a File into Outcomes, and File.Check compares
// them with the expectations, printing each failing object followed by one
// "field: want X, got Y" line per mismatch. Package conformance wires the
// runners of this module together.
//
// A host whose runner models only some parts of a broker (the engine but
// not the status writer or the prober) declares them with
// Runners.Modelling; the files that need another part are then skipped,
// with the part they need as the reason, rather than failed.
package scenario
