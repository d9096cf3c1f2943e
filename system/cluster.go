package system

import (
	"encoding/json"
	"time"

	"github.com/condengine/condengine/scenario"
)

// Cluster is how a tool that reads a live cluster (kubectl condengine
// audit and explain) evaluates a system's objects there. A cluster holds
// the objects but not everything the host observed besides them: probe
// results, its memory of earlier generations, a collection run. A System
// without a Cluster is evaluated once there, by Run with explain, and
// every condition of it is judged.
type Cluster struct {
	// Evaluate evaluates objects (the system's objects as the API server
	// returns them, as JSON, with those References named that exist) at
	// now, once per guess of what the host observed that the cluster
	// does not hold. nil: Run once, with explain.
	Evaluate func(objects []json.RawMessage, now time.Time) (ClusterResult, error)
	// Unjudged says, per "Kind/Type", what a condition depends on that a
	// cluster does not hold, for when the guesses disagree on it: a tool
	// then shows the condition as written, with this in place of a rule.
	Unjudged map[string]string
	// Assumed says, per "Kind/Type", which input a cluster does not hold
	// that the evaluation assumed for the condition, and what it
	// assumed: a tool shows it beside the rule.
	Assumed map[string]string
}

// ClusterResult is a system's evaluation of a cluster's objects
// (Cluster.Evaluate).
type ClusterResult struct {
	// Guesses holds, per guess, an outcome per object the system answers
	// for, its due conditions in Computed; the outcomes of the first
	// guess carry their Provenance. A tool judges a condition only when
	// every guess gives it the same value.
	Guesses [][]scenario.Outcome
	// LeftOut are the objects the system could not use at all (two
	// objects with one UID), each with why.
	LeftOut []LeftOut
}

// LeftOut is an object an evaluation could not use, and why.
type LeftOut struct {
	Kind, Namespace, Name, Problem string
}
