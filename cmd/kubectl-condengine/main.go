// Command kubectl-condengine is a kubectl plugin: `kubectl condengine
// audit` reads the Agent Kourier and FinOps objects of a cluster,
// computes with condengine the conditions each one is due, and prints
// every condition written otherwise. It never writes to the cluster.
//
//	kubectl condengine audit [-n NAMESPACE | -A] [-o table|yaml|json] [--kubeconfig FILE] [--context NAME]
//
// Exit status: 0 every judged condition is as due; 1 at least one
// object has drifted; 2 the command line or the cluster could not be
// used (the message says which).
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
//   - With -n, every namespace is still read (a Binding may name another
//     namespace's AgentBackend, a Subscription another's Offering) and
//     only the chosen namespace's objects are reported; without the right
//     to list across namespaces, the namespace alone is read and a note
//     says references elsewhere read as missing.
package main

import (
	"os"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, clusterReader, time.Now))
}
