// Package conformance wires the systems of this module to the scenario
// format: Runners maps each system a scenario may name ("binding",
// "finops") to the function that evaluates it, and Vocabularies lists the
// condition vocabulary of every kind that carries conditions.
//
// A host operator that embeds the library runs the project's scenario
// corpus, or its own files, from a Go test:
//
//	func TestConformance(t *testing.T) {
//		conformance.Runners().TestFS(t, conformance.Corpus())
//	}
//
// The command-line tool (cmd/condengine) reads the same two lists, so
// `condengine check` and the Go test agree by construction, and the
// generated reason tables under docs/vocabulary come from the values the
// engine validates against.
package conformance
