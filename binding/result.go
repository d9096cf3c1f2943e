package binding

import (
	"k8s.io/apimachinery/pkg/types"

	"github.com/condengine/condengine/conditions"
)

// Result is what one evaluation decided. Every list is sorted, so equal
// snapshots give equal results whatever the order of their lists.
type Result struct {
	// Bindings holds one entry per Binding this broker answers for, sorted
	// by namespace, name and UID. Bindings another broker owns are absent.
	Bindings []Outcome
	// Memory is the memory of good generations after this evaluation.
	Memory Memory
	// IgnoredProbes are probe results that counted for no Binding.
	IgnoredProbes []IgnoredProbe
	// Errors are objects the engine could not use at all (missing
	// metadata, a repeated UID or name), sorted by kind, namespace, name,
	// UID and problem.
	Errors []ObjectError
}

// Outcome is what one reconcile decides for one Binding: the shared
// conditions.Outcome (identity, Conditions, Owned, Write and Skip,
// Finalizer, Retry) and the Binding's whole Status, with where it is
// served and the causes for the log.
//
// Write is the whole answer to "write now?" for a host that spaces no
// writes: it is false for a stale snapshot (Skip Stale), an unchanged
// status (Unchanged), the ConfigMap route (ConfigMapRoute) and a standby
// (NotLeader), tested in that order. A broker that runs the writer's
// timing passes the outcome through runtime.Limits.DecideOutcome, which
// keeps these answers and may hold a due write (Skip Held, RetryAt).
// A Binding has no finalizer and Evaluate asks for no retry.
type Outcome struct {
	conditions.Outcome
	// Status is the Binding's status after this evaluation: Conditions.
	Status Status
	// Served reports that the broker runs some generation of the Binding;
	// ServedGeneration is that generation (0 when not served).
	Served           bool
	ServedGeneration int64
	// Causes are what the log needs and the status must not show: raw
	// probe errors, names and problems from other namespaces.
	Causes []Cause
	// Provenance holds, with Explain, one entry per condition in
	// Conditions, in the same order: the rule that decided it and the raw
	// evidence. Like Causes it is for logs and tools, never a status.
	// Evaluate leaves it nil.
	Provenance []conditions.Provenance `json:",omitempty"`
	// Errors are problems with the object as input (not with its spec).
	Errors []string
}

// Cause is one line for the operator's log behind a condition.
type Cause struct {
	// Type and Reason are the condition the cause explains.
	Type   string
	Reason string
	// Detail is the raw cause, cut to MaxCauseBytes. It may name objects
	// of other namespaces, hosts and platform errors: never put it in a
	// status.
	Detail string
}

// MaxCauseBytes bounds a Cause's Detail, so a huge error text cannot
// flood the log.
const MaxCauseBytes = 4096

// IgnoredProbe is a probe result that counted for nothing, and why.
type IgnoredProbe struct {
	UID        types.UID
	Namespace  string
	Name       string
	Generation int64
	Why        string
}

// ObjectError is an object the engine had to leave out, and why.
type ObjectError struct {
	Kind      string
	Namespace string
	Name      string
	UID       types.UID
	Problem   string
}
