// Package conformance is where other implementations meet this engine.
//
// Every function takes the systems it works on as values (system.System);
// SeedSystems lists the two this module implements (bindingtest.System
// and finopstest.System), and an author of another system passes their
// own value to the same functions.
//
// The corpus: Corpus returns the project's scenario files (binding/ and
// finops/), embedded in the module, and Runners maps each seed system to
// its runner. A host runs the corpus through the engine or through its
// own runners, one subtest per file (Test, TestFS):
//
//	func TestCorpus(t *testing.T) {
//		rs := conformance.Runners()
//		rs["binding"] = myReconcileAsARunner
//		conformance.TestFS(t, rs, conformance.Corpus()) // -run Corpus/ready-all-true selects one file
//	}
//
// Differential conformance: Check (in a Go test) and Differential (from
// anywhere) compare an Evaluator with the engine (Reference) on
// snapshots the system's generator draws (Generate; for the seed
// systems, the project's rapid generators, pushed toward the rare cases:
// HTTP classes, claims at one second, long multibyte text, int64
// extremes, deletions before now, statuses already as computed, held
// writes, released finalizers, every month). The first disagreement is shrunk
// (Shrink) and returned as a Counterexample: the differences, one per
// field (Difference), and a scenario file whose expect block holds the
// engine's answer, which `condengine check` passes. Request,
// ParseRequest, EncodeAnswer and DecodeAnswer are the two line kinds of
// the JSON-lines protocol `condengine conform` and `condengine
// reference` speak (docs/conform.md).
//
// Run is Differential that also counts the rules each snapshot reached
// (ReachedRules, from the provenance of the system's outcomes;
// CoverageReport) and the decision outcomes it came to (ReachedDecisions,
// per status kind: write or not and why, the finalizer's add, remove or
// keep, a retry; DecisionReport), and can run until every rule
// (SystemRules) and decision outcome (SystemDecisions) a system can
// reach was reached. CompareWith adds condition order, the
// declared decision keys (write, removeFinalizer, retryAt) and a subset
// (Only) to Compare; Validate reports what the API server would refuse
// in an answer. Rules and Vocabularies list the rule table and the
// condition vocabularies of the systems given; a rule's example becomes
// a corpus scenario (go generate ./conformance) under its system's
// directory.
//
// # Decisions
//
//   - An answer lists the objects of the system's status kinds
//     (system.Kind.Status): Binding; PriceBook, Offering, Subscription.
//     CostJob, FinOpsProvider and the OpenCost ConfigMap carry no
//     computed status. Its decision keys come from the outcome: write
//     (the status writer's decision when the runner models one), the
//     finalizer's removal, and RetryAt.
//   - Objects are matched by identity and conditions by type, so list
//     order never counts as a difference; every condition field is
//     compared, lastTransitionTime to the second; status fields compare
//     as JSON values, numbers by value and null as absent.
//   - Snapshot i of a run is drawn with seed Seed+i, so a failure names
//     the seed that reproduces it, in Go and over the protocol alike.
//   - Shrinking drops whole list entries (objects, memory, probes,
//     failures, collection results, the entries of the observed block's
//     lists) and the broker and collection blocks, halves first; it
//     stops after ShrinkBudget evaluations. An implementation that broke
//     (ErrBroken) is not shrunk.
//   - Corpus is a function, not a variable, so no caller can replace the
//     corpus under another.
package conformance
