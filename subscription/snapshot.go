package subscription

import (
	"time"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
)

// Snapshot is the world one evaluation sees: every Subscription and
// Offering as the API server holds them, status included, every other
// object a targetRef may name, the reads that fail, and the charge
// collection run that happened at Now, if any. Evaluate does not modify
// it. List order never matters.
type Snapshot struct {
	// Now is the instant of the evaluation: it stamps activatedAt,
	// deactivatedAt and every lastTransitionTime that moves.
	Now time.Time
	// Subscriptions are every Subscription, across all namespaces.
	Subscriptions []finopsv1.Subscription
	// Offerings are every Offering, read for the Offering gate, the
	// requirement list, the parent-loss policy and the fee.
	Offerings []finopsv1.Offering
	// Objects are every other object present, for the target gate.
	// Subscriptions and Offerings need not be repeated here.
	Objects []ObjectRef
	// Failures are reads that fail with an error other than not found.
	// An entry with an empty APIVersion matches any API version.
	Failures []ObjectRef
	// Collection is the last SubscriptionChargeCollection run, at or
	// before Now: a host hands it to every pass until a newer one runs;
	// nil when none has run yet.
	Collection *Collection
}

// ObjectRef identifies an object of any kind. Namespace is empty for a
// cluster-scoped object.
type ObjectRef struct {
	// APIVersion is the group/version; in Failures, empty matches any.
	APIVersion string `json:"apiVersion,omitempty"`
	// Kind is the object's kind.
	Kind string `json:"kind"`
	// Namespace is empty for a cluster-scoped object.
	Namespace string `json:"namespace,omitempty"`
	// Name is the object's name.
	Name string `json:"name"`
}

// Collection is one SubscriptionChargeCollection run.
type Collection struct {
	// ScheduledHour is the hour the run was scheduled for; it is
	// truncated to the hour.
	ScheduledHour time.Time
	// AllocationBoundary is the earliest hour with non-finalized usage
	// rows; the charges of usage-billing Subscriptions are settled only
	// before it. Zero means the scheduled hour.
	AllocationBoundary time.Time
	// Results holds what the run produced per Subscription. A
	// Subscription without an entry got no buckets and no error.
	Results []CollectionResult
}

// Source says where a collection run took a Subscription's buckets from.
type Source string

// The sources a collection run reports.
const (
	// SourceDB: aggregated from recorded charge rows.
	SourceDB Source = "db"
	// SourceCalculator: the database read failed; computed in memory.
	SourceCalculator Source = "calculator"
	// SourceError: the run recorded an error against the Subscription.
	SourceError Source = "error"
)

// CollectionResult is one run's outcome for one Subscription.
type CollectionResult struct {
	// Subscription names the Subscription.
	Subscription finopsv1.Reference
	// Buckets is how many cost buckets the run produced for it.
	Buckets int
	// Source is where they came from, or SourceError.
	Source Source
}

// Result is what Evaluate decided for the whole snapshot.
type Result struct {
	// Subscriptions holds one Outcome per Subscription, sorted by
	// namespace then name.
	Subscriptions []Outcome
	// Errors are problems of the snapshot as a whole (a namespace/name
	// listed twice, a status time at the zero instant, a collection run
	// whose buckets no status can hold), in a stable order. Objects they
	// name are left out of Subscriptions, and such a run is ignored.
	Errors []string
}

// Outcome is what one reconcile decides for one Subscription: the shared
// conditions.Outcome (identity, Conditions, Owned, Write and Skip,
// Finalizer, Retry) and the Subscription's whole Status.
//
// Generation is the metadata.generation the conditions were written for
// (a negative one reads as 0). Finalizer is FinalizerRemove when the
// collection run releases the Subscription. Retry is set, at the
// snapshot's Now, when a read failed (ValidationError): the host retries
// with a growing delay of its own; everything else waits for a watch
// event.
type Outcome struct {
	conditions.Outcome
	// Status is the complete status after this evaluation: what to write
	// when Write is true, the unchanged status otherwise. Parts left
	// unchanged share memory with the snapshot (no copy is made for a
	// Subscription that needs no write); treat it as read-only.
	Status finopsv1.SubscriptionStatus
	// Errors are problems met while evaluating this Subscription that
	// did not fit a condition (a fee the billing arithmetic refused, a
	// collection error), in a stable order.
	Errors []string
	// Provenance holds, with Explain, one entry per condition of
	// Status.Conditions, in the same order: the rule that decided it and
	// the raw evidence (for logs and tools, never a status). Evaluate
	// leaves it nil.
	Provenance []conditions.Provenance `json:",omitempty"`
}
