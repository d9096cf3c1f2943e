package binding

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/condengine/condengine/conditions"
)

// Result is what one evaluation decided. Every list is sorted, so equal
// snapshots give equal results whatever the order of their lists.
type Result struct {
	// Bindings holds one entry per Binding this broker answers for, sorted
	// by namespace, name and UID. Bindings another broker owns are absent.
	Bindings []BindingResult
	// Memory is the memory of good generations after this evaluation.
	Memory Memory
	// IgnoredProbes are probe results that counted for no Binding.
	IgnoredProbes []IgnoredProbe
	// Errors are objects the engine could not use at all (missing
	// metadata, a repeated UID or name), sorted by kind, namespace, name,
	// UID and problem.
	Errors []ObjectError
}

// BindingResult is the outcome for one Binding.
type BindingResult struct {
	Namespace  string
	Name       string
	UID        types.UID
	Generation int64
	// Conditions is the exact list a write carries: the desired conditions
	// merged with the object's current ones. When nothing changes it is
	// the object's current slice itself.
	Conditions []metav1.Condition
	// Write reports that this broker must write Conditions now: they
	// differ from the object's, the broker leads, the route is crds and
	// the snapshot is not stale.
	Write bool
	// Changed reports that Conditions differ from the object's, whether
	// or not this broker may write them (a standby, the ConfigMap route).
	Changed bool
	// Stale reports that the object's status describes a newer generation
	// than the snapshot has: nothing is written until the snapshot catches
	// up.
	Stale bool
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
