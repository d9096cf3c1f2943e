package system

import (
	"strconv"

	"github.com/condengine/condengine/conditions"
)

// The decision outcomes of a kind whose status a system computes are what
// a host does after one reconcile of one of its objects, besides the
// conditions: whether it writes the status now, and if not why
// (conditions.Skip), what it does with the kind's finalizer when the
// system manages one, and whether it retries a write it holds back. A
// coverage report counts how many snapshots reached each, the way it
// counts rules. Each is named "Kind/key=value", or "Kind/retryAt":
//
//	Binding/write=true   Binding/write=false   Binding/skip=Held
//	Subscription/finalizer=Remove              Binding/retryAt
//
// The names are derived from the kinds alone (Kind.Status, Kind.Finalizer)
// and the closed set of conditions.Skip, so every system has them without
// declaring anything; those no snapshot of it can reach go in
// System.UnreachableDecisions.

// DecisionWrite names the outcome "the host writes the status now" (true)
// or "it does not" (false) of kind.
func DecisionWrite(kind string, write bool) string {
	return kind + "/write=" + strconv.FormatBool(write)
}

// DecisionSkip names the outcome "no write, for this reason" of kind.
func DecisionSkip(kind string, s conditions.Skip) string { return kind + "/skip=" + string(s) }

// DecisionFinalizer names what a reconcile of kind does with its
// finalizer: Add, Remove, or Keep (conditions.FinalizerKeep).
func DecisionFinalizer(kind string, a conditions.FinalizerAction) string {
	if a == conditions.FinalizerKeep {
		return kind + "/finalizer=Keep"
	}
	return kind + "/finalizer=" + string(a)
}

// DecisionRetryAt names the outcome "the host retries a write it holds
// back" of kind.
func DecisionRetryAt(kind string) string { return kind + "/retryAt" }

// Decisions lists every decision outcome of s's status kinds (Kind.Status),
// in the order of Kinds, and for each kind: write true and false, each
// reason not to write (conditions.Skips, less SkipNeverWritten, which
// only a kind whose status is never written has), the finalizer's add,
// remove and keep when the kind has a finalizer, and a retry. The
// unreachable ones are included.
func (s *System) Decisions() []string {
	var out []string
	for _, k := range s.Kinds {
		if !k.Status {
			continue
		}
		out = append(out, DecisionWrite(k.Kind, true), DecisionWrite(k.Kind, false))
		for _, skip := range conditions.Skips() {
			if skip != conditions.SkipNeverWritten {
				out = append(out, DecisionSkip(k.Kind, skip))
			}
		}
		if k.Finalizer != "" {
			for _, a := range []conditions.FinalizerAction{conditions.FinalizerAdd, conditions.FinalizerRemove, conditions.FinalizerKeep} {
				out = append(out, DecisionFinalizer(k.Kind, a))
			}
		}
		out = append(out, DecisionRetryAt(k.Kind))
	}
	return out
}
