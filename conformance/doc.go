// Package conformance is where other implementations meet this engine.
//
// The corpus: Corpus returns the project's scenario files (binding/ and
// finops/), embedded in the module, and Runners maps each system a
// scenario may name to the engine's runner (RunBinding, RunFinOps). A
// host runs the corpus through the engine or through its own runners:
//
//	func TestCorpus(t *testing.T) {
//		rs := conformance.Runners()
//		rs["binding"] = myReconcileAsARunner
//		conformance.TestFS(t, rs, conformance.Corpus()) // -run Corpus/ready-all-true selects one file
//	}
//
// Differential conformance: Check (in a Go test) and Differential (from
// anywhere) compare an Evaluator with the engine on snapshots drawn by
// the project's rapid generators (bindingtest.SnapshotGen,
// finopstest.SnapshotGen). The first disagreement is shrunk (Shrink) and
// returned as a Counterexample: the differences, one per field
// (Difference), and a scenario file whose expect block holds the
// engine's answer, which `condengine check` passes. Request, ParseRequest,
// EncodeAnswer and DecodeAnswer are the two line kinds of the JSON-lines
// protocol `condengine conform` and `condengine reference` speak
// (docs/conform.md).
//
// Run is Differential that also counts the rules of Rules each snapshot
// reached (ReachedRules, CoverageReport) and can run until every rule a
// system can reach (SystemRules) was reached. CompareWith adds condition
// order, the declared decision keys (write, removeFinalizer, retryAt)
// and a subset (Only) to Compare; Validate reports what the API server
// would refuse in an answer. Generated snapshots are pushed toward the
// rare cases (HTTP classes, claims at one second, long multibyte text,
// int64 extremes, deletions before now) before they are sent.
//
// The plumbing between snapshots and scenarios lives here, not in the
// engine packages: BindingSnapshot and FinOpsSnapshot read a scenario,
// BindingScenario and FinOpsScenario write one. Vocabularies lists the
// condition vocabulary of every kind.
//
// # Decisions
//
//   - An answer lists the objects whose status the system writes
//     (StatusKinds): Binding; PriceBook, Offering, Subscription. CostJob,
//     FinOpsProvider and the OpenCost ConfigMap carry no computed status.
//   - Objects are matched by identity and conditions by type, so list
//     order never counts as a difference; every condition field is
//     compared, lastTransitionTime to the second; status fields compare
//     as JSON values, numbers by value and null as absent.
//   - Snapshot i of a run is drawn with seed Seed+i, so a failure names
//     the seed that reproduces it, in Go and over the protocol alike.
//   - Shrinking drops whole list entries (objects, memory, probes,
//     failures, collection results) and the broker and collection
//     blocks, halves first; it stops after ShrinkBudget evaluations. An
//     implementation that broke (ErrBroken) is not shrunk.
//   - Corpus is a function, not a variable, so no caller can replace the
//     corpus under another.
package conformance
