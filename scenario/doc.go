// Package scenario reads the conformance vectors of condengine: YAML files
// that each hold one moment of one system (the objects as the API server
// has them, what the host observed besides them, the broker's memory,
// probe results, failing reads, a charge collection run) and the
// conditions and status fields that must come out.
//
// The format is a public contract, documented in docs/scenarios.md; keys
// are only ever added. Parse refuses unknown keys so a misspelt
// expectation fails loudly instead of passing unchecked.
//
// The package knows no system: any system name is valid in a file, and a
// Runner per system turns a File into Outcomes (system.Runners makes
// them from system values; conformance.Runners holds the seed systems'),
// and File.Check compares them with the expectations, printing each
// failing object followed by one "field: want X, got Y" line per
// mismatch. A file of a system no runner is given for is an error that
// lists the systems known. A system reads the neutral observed block with
// File.DecodeObserved, which keeps the file's field paths and lines in
// its errors.
//
// A host whose runner models only some parts of a broker (the engine but
// not the status writer or the prober) declares them with
// Runners.Modelling; the files that need another part are then skipped,
// with the part they need as the reason, rather than failed.
//
// The package does not link package testing: conformance.Test and
// conformance.TestFS run a corpus as subtests.
package scenario
