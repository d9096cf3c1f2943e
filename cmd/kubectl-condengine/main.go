// Command kubectl-condengine is a kubectl plugin: `kubectl condengine
// audit` reads the Agent Kourier and FinOps objects of a cluster,
// computes with condengine the conditions each one is due, and prints
// every condition written otherwise, with the rule and the evidence that
// make the due value. `kubectl condengine explain` prints, for one
// object, every due condition with the rule that decided it and the
// evidence it read. Neither ever writes to the cluster. `kubectl
// condengine version` prints the plugin's version and commit. It is the
// plugin of package plugin for the two seed systems; an author of
// another kind builds the same plugin for theirs with plugin.Main.
//
//	kubectl condengine audit [-n NAMESPACE | -A] [-o table|yaml|json] [--kubeconfig FILE] [--context NAME]
//	kubectl condengine explain KIND NAME|KIND/NAME|KIND NAMESPACE/NAME [-n NAMESPACE] [-o tree|json] [--kubeconfig FILE] [--context NAME]
//	kubectl condengine version [-o text|json]
//
// KIND is Binding, PriceBook, Offering or Subscription, in any case,
// singular or plural, the CRD's short name (akbinding) or qualified by
// its group (bindings.agentkourier.dev): the names `condengine explain`
// takes too (system.ResolveKind). A misspelt kind or command is answered with
// the closest one.
//
// audit's exit status: 0 every judged condition is as due; 1 at least
// one object has drifted; 2 the command line or the cluster could not be
// used (the message says which). explain exits 0 when it printed the
// object, 2 otherwise.
//
// audit's table prints, under each drift row and indented, the decision
// behind the due condition as explain prints it (the condition it was
// derived from, the rule, the evidence); -o yaml and -o json carry it in
// each drift's "why" field (rule, sentence, from, evidence, missing).
// explain's tree and JSON are those of `condengine explain` (package
// explain of the module).
//
// # Decisions
//
//   - A cluster holds no probe results, so a Binding is evaluated three
//     times (no results yet, every probe good, every probe failing); a
//     condition is judged only when the three agree, and the others are
//     listed under "not judged". For an accepted Binding these are
//     BackendReachable, ChannelJoined and Ready; a refused Binding is
//     judged whole. FinOps conditions need no probes and are all judged.
//   - Each Binding is judged by the broker that owns its ChatConnection
//     (spec.broker; the default broker when the connection is missing),
//     as a leader that reads custom resources, has run for a day and
//     remembers no earlier generation: a Binding the real broker still
//     serves from memory may read as drifted; its message says so.
//   - The transition time is not compared: it records when a write
//     happened. Status, reason, message and observedGeneration are.
//   - Only the kind's own condition types are compared; other
//     controllers' conditions are theirs.
//   - A Subscription's target is looked up with a get (never a list),
//     so audit needs get on the target kinds and list on both groups; a
//     group that is not installed is skipped with a note on stderr.
//   - -A wins over -n, as in kubectl. Without either, the namespace of
//     the kubeconfig context is audited.
//   - explain evaluates as audit does. A condition audit cannot judge is
//     shown as the object carries it (absent when not written) under
//     "missing input", with no rule: for an accepted Binding these are
//     BackendReachable, ChannelJoined and Ready, which depend on the
//     prober. A Subscription's CostsResolved is judged as if no charge
//     collection ran now (the collector's last one is kept); its
//     decision names the run as the missing input, in explain and in
//     audit's why alike.
//   - explain shows what is due. When a judged condition is written
//     otherwise, it says so on stderr ("note: ... is written ..., due
//     ..."), leaving stdout the shape of `condengine explain`.
//   - Evidence is raw and may name objects of other namespaces (the
//     Binding that holds a channel, a parent Subscription). It is printed
//     to the person who ran the command, who read those objects with
//     their own credentials; it never goes into a status.
//   - With -n, every namespace is still read (a Binding may name another
//     namespace's AgentBackend, a Subscription another's Offering) and
//     only the chosen namespace's objects are reported; without the right
//     to list across namespaces, the namespace alone is read and a note
//     says references elsewhere read as missing (a Subscription's target
//     the user may not get among them).
package main

import (
	"github.com/condengine/condengine/cmd/kubectl-condengine/plugin"
	"github.com/condengine/condengine/conformance"
)

func main() { plugin.Main("condengine", conformance.SeedSystems()...) }
