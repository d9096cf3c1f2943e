// Package explain renders the provenance of conditions for people and
// tools: per condition, the rule that decided it, the condition it was
// derived from and the evidence the rule read, as a short tree or as
// JSON. `condengine explain` (a scenario file or manifest stream) and
// `kubectl condengine explain` and `audit` (a live cluster) print
// through it, so the three read alike.
//
// The Explain function of each evaluator (binding.Explain,
// finops.Explain, ...) returns a conditions.Provenance beside every
// condition; NewObject pairs them up, with the rule sentences of a table
// (conformance.Rules through Sentences), into an Object; FromOutcomes
// does so for every outcome of a system's Run with explain set, for any
// system. WriteTree and WriteJSON print a list of Objects;
// Decision.WriteTree prints the lines of one decision at a chosen
// indent, for tools that show a decision under something else (a drift
// row, say).
//
// The tree of one condition reads:
//
//	Ready=False Accepted:ChannelConflict (observedGeneration 1)
//	  ← derived from Accepted
//	  ← rule binding/ready/from-accepted: <the rule's sentence>
//	    ← Binding team-a/late (uid u-late, generation 1)
//	        status.conditions[Accepted]: ChannelConflict
//
// Evidence is raw: it may name objects of other namespaces, hosts and
// platform errors. Print it to a terminal or a log, never into a status.
//
// # Decisions
//
//   - Values are printed on one line each: every run of white space in
//     a fact's value, line breaks included, becomes one space, so a value
//     cannot forge tree lines. JSON carries the value unchanged.
//   - A condition that the inputs at hand cannot decide (a live cluster
//     holds no probe results) carries Missing and an empty Rule; the tree
//     prints "← missing input: ..." and no rule line. A decided condition
//     that leaned on a default for a missing input carries both.
//   - A condition with an empty Status is one that is not on the object
//     and that the inputs at hand cannot decide; the tree prints it as
//     "Type (absent)" with its missing input, so a reader still learns
//     that it exists and why nothing is said about it.
//   - The JSON shape is the Object's fields; Decision's fields sit flat
//     in each condition, and "missing" appears only when set.
//   - A condition without provenance (a bug in an evaluator) is printed
//     with an empty rule rather than dropped, so the gap shows.
package explain
