// Package cli builds the condengine command for the systems it is
// given, as multichecker.Main builds a vet-like command for its
// analyzers: eval, check, explain, vocab, conform, reference and
// version, and demo when there is demo data. A command is a Command
// value (a program name, the systems, an optional demo); Run executes
// one command line against given streams, so tests call it in-process,
// and Main is the whole main of a program:
//
//	func main() { cli.Main("mydb", mydbtest.System()) }
//
// cmd/condengine is that value for the two seed systems, with the
// seed's demo. Nothing in the package knows a system by name: each
// subcommand works from the system values (their kinds, vocabularies,
// rules, CRDs and Run), and a system's optional extensions, when set,
// make it faster or more precise, never different in kind:
//
//   - Stream (system.Stream): the system reads and evaluates large
//     inputs itself, its objects typed and compact, written out as they
//     are decided; the binding system's keeps a 100,000-Binding stream
//     under twice its size. Without it, eval reads the system's
//     manifests as JSON and calls Run.
//   - Check: a manifest's problem is reported at its line in the stream,
//     as it is read; without it, Run's errors name the document.
//   - References: manifests of kinds no system claims are handed to the
//     system (a Subscription's target may be of any kind); without it,
//     they are skipped with a note.
//
// The subcommands (`NAME help` lists them, `NAME CMD -h` gives each
// one's flags):
//
//	eval [-f FILE|-] [-o table|yaml|json] [-now RFC3339]
//	check [-v] [-o text|json|junit] DIR|FILE...
//	vocab [KIND] [-o markdown|json] [-out DIR]
//	explain -f FILE|- [KIND [NAMESPACE/]NAME] [-o tree|json] [-now RFC3339]
//	explain -rules [-o markdown|json] [-out FILE]
//	conform --system NAME --exec CMD [--runs N] [--seed S] [--out FILE]
//	reference --system NAME
//	version [-o text|json]
//	demo
//
// eval reads one scenario file (docs/scenarios.md) or a stream of
// manifests: YAML documents, JSON, and Lists as `kubectl get -o yaml`
// prints them. It prints a `kubectl get -A` table per kind and every
// object's conditions, or a v1 List of every object with its computed
// status (-o yaml, -o json). check runs scenario files with the
// systems' runners and prints a FAIL block per failing file. explain
// prints, per condition, the rule that decided it and the evidence it
// read. vocab prints the kinds' reason tables (package vocab); -out
// writes the docs directory of them. conform checks another
// implementation against the engine over the JSON-lines protocol of
// docs/conform.md; reference answers that protocol with the engine.
//
// Exit codes: 0 success; 1 a failed scenario, a disagreement or a broken
// implementation (conform), an unreadable or invalid input, a missing
// path; 2 a command line that cannot be understood. Errors name the
// file, the document (counted from 1, with items[i] for a List entry),
// the object and the field.
//
// # Decisions
//
//   - A manifest goes to the system that lists its group and kind, else
//     to the system that writes to a kind of its group (which then says
//     it knows no such kind). A manifest of no system's is handed to the
//     systems with References that have objects of their own in the
//     input, or skipped with a note on stderr.
//   - A kind's table has the columns its CRD declares for the default
//     view (additionalPrinterColumns of priority 0), a date printed as
//     an age and a cell from the first value its JSONPath selects, as
//     the API server's table conversion does; a kind without declared
//     columns gets the status of each of its condition types and its
//     age. A system's Stream prints its own tables.
//   - Kinds, tables and List items come system by system, in the order
//     of Command.Systems, each system's kinds in the order of its Kinds;
//     objects by namespace and name.
//   - The first document decides the input's form: a document with
//     system and no kind is a scenario file, which must be alone.
//   - check on a path that does not exist, or on a directory without
//     scenario files, exits 1: it is input that cannot be checked, not a
//     command line that cannot be parsed.
//   - With -f FILE, eval sets the garbage collector's budget from the
//     file's size; stdin has no size to budget from, so the budget grows
//     as it is read.
//   - explain evaluates the input as eval does, then once more with
//     provenance (Run with explain, or the Stream's Explain): it costs
//     two evaluations.
//   - A NAME without a namespace matches that name in every namespace.
//   - Run does not validate the systems (system.Validate reads their
//     CRDs, a cost on every command line): an author validates them in
//     a test.
package cli
