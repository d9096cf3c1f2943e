// Command condengine shows what the Agent Kourier broker and the FinOps
// operator would write into the status of their objects, computed by this
// module's engines on data you give it. It is the command of package
// cmd/cli for the two seed systems (conformance.SeedSystems), with the
// seed's demo; an author of another kind builds the same command for
// theirs with cli.Main.
//
//	condengine demo
//	condengine eval [-f FILE|-] [-o table|yaml|json] [-now RFC3339]
//	condengine check [-v] [-o text|json|junit] DIR|FILE...
//	condengine vocab [KIND] [-o markdown|json] [-out DIR]
//	condengine explain -f FILE|- [KIND [NAMESPACE/]NAME] [-o tree|json] [-now RFC3339]
//	condengine explain -rules [-o markdown|json] [-out FILE]
//	condengine conform --system binding|finops --exec CMD [--runs N] [--seed S] [--out FILE]
//	condengine reference --system binding|finops
//	condengine version [-o text|json]
//
// demo prints, from built-in scenario files (demo/*.yaml, which `check`
// also verifies), the `kubectl get akbinding -A` view of the seed and a
// FinOps family, each table followed by every object's full conditions.
//
// eval reads one scenario file (docs: the scenario format) or a stream of
// manifests: YAML documents, JSON, and Lists as `kubectl get -o yaml`
// prints them. It prints the tables and conditions, or a v1 List of every
// object with its computed status (-o yaml, -o json).
//
// check runs scenario files with the runners of package conformance and
// prints a FAIL block per failing file, one line per expectation that
// does not hold (`conditions[0].reason: want "OK", got "ChannelConflict"`)
// or per error of a file it cannot run, then the line "N passed, M
// failed". -o json prints the same verdicts as
// one JSON document, -o junit as JUnit XML (a testsuite per system, a
// testcase per file) for CI systems.
//
// conform checks another implementation against this engine over the
// JSON-lines protocol of docs/conform.md: it starts CMD once, sends it
// generated snapshots and compares each answer; the first disagreement is
// shrunk and printed (and written to --out) as a scenario file. reference
// answers that protocol with this engine.
//
// version prints the module version (a release tag, a pseudo-version
// for a build from a checkout, or "(devel)"), the commit the binary was
// built from and whether its work tree had changes, and the Go release
// and platform; -o json prints them as one object with fixed keys.
//
// vocab prints the reason tables of each kind's condition vocabulary, the
// same tables the validator enforces; `go generate ./cmd/condengine`
// writes them to docs/vocabulary, and a test fails when those files are
// stale.
//
// explain reads the same inputs as eval and prints, per condition of each
// object (or of the one KIND and NAME asked for), the decision as a short
// tree: the condition, the rule that decided it (and, for a derived one
// such as Ready, the condition it came from), and the evidence - each
// object read, with the fields and values that decided. Its evidence is
// raw: it names other namespaces' objects and hosts, which a status never
// does, so it is output for the person running the tool, not for a
// status. -o json prints the same as a list of objects. -rules prints the
// rule table; `go generate ./cmd/condengine` writes it to docs/rules.md.
//
// Exit codes: 0 success; 1 a failed scenario, a disagreement or a broken
// implementation (conform), an unreadable or invalid input, a missing
// path; 2 a command line that cannot be understood.
// Errors name the file, the document (counted from 1, with items[i] for a
// List entry), the object and the field.
//
// # Decisions
//
//   - A manifest stream is evaluated as the broker a scenario file
//     without a broker block describes (bindingtest.DefaultBroker): it
//     has led for an hour, reads custom resources, and its prober has
//     listed the Bindings but has no results yet, so served Bindings
//     read Pending. -now sets the instant (default: the current time); a
//     scenario file brings its own instant, broker, memory and probes.
//   - Hand-written manifests without metadata.uid get one derived from
//     kind, namespace and name, and generation 0 becomes 1, as the API
//     server would have set them (binding.Objects.DefaultIdentity);
//     output is the same at every run.
//   - Manifests of other API groups are skipped with a note on stderr
//     when there is nothing of FinOps to evaluate; with FinOps objects
//     they are kept, because a Subscription's targetRef may name any kind
//     (the finops system's References).
//   - A Binding another broker owns, or one a standby would not write,
//     is shown with the status it already has.
//   - The first document decides the input's form: a document with
//     system and no kind is a scenario file, which must be alone.
//   - check on a path that does not exist, or on a directory without
//     scenario files, exits 1: it is input that cannot be checked, not a
//     command line that cannot be parsed.
//   - The binding system reads and evaluates a stream itself (its
//     Stream): with -f FILE, eval sets the garbage collector's budget
//     from the file's size, so a 50 MB stream of 100k Bindings peaks
//     under twice its size; stdin has no size to budget from.
//   - explain evaluates the input as eval does, then once more with
//     provenance (the engines' Explain): it costs two evaluations, and
//     eval pays only for keeping the Bindings' condition slices as read.
//   - A NAME without a namespace matches that name in every namespace.
package main
