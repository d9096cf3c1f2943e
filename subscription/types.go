package subscription

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/billing"
)

// APIVersion and Kind identify a Subscription manifest.
const (
	APIVersion = "finops.stakater.com/v1alpha1"
	Kind       = "Subscription"
)

// Finalizer is the finalizer that holds a deleted Subscription until a
// charge collection run agrees to let it go.
const Finalizer = "subscriptions.finops.stakater.com/finalizer"

// Parent-loss policies of spec.lifecycle.onParentDeactivate.
const (
	PolicyDeactivate = "Deactivate"
	PolicyOrphan     = "Orphan"
)

// Subscription opens a billing relationship between a subscriber and an
// Offering, optionally inside a family of Subscriptions linked by parent.
type Subscription struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   Spec   `json:"spec"`
	Status Status `json:"status,omitempty"`
}

// Spec is what the user writes on a Subscription. offeringRef and parent
// are immutable once created; usageSources and lifecycle may be edited.
type Spec struct {
	// OfferingRef names the Offering this Subscription binds to.
	OfferingRef Reference `json:"offeringRef"`
	// Parent links the Subscription into a family; nil for a root.
	Parent *Parent `json:"parent,omitempty"`
	// UsageSources selects the workloads whose usage is metered. Entries
	// OR together; the fields of one entry AND together.
	UsageSources []UsageSource `json:"usageSources,omitempty"`
	// Lifecycle overrides the Offering's parent-loss policy and names an
	// object whose existence the Subscription depends on.
	Lifecycle *Lifecycle `json:"lifecycle,omitempty"`
}

// Reference names a namespaced object of a known kind. Namespace is
// required and never defaulted from the referrer.
type Reference struct {
	// Name is the object's name.
	Name string `json:"name"`
	// Namespace is the object's namespace; required, never defaulted.
	Namespace string `json:"namespace"`
}

// String is "namespace/name".
func (r Reference) String() string { return r.Namespace + "/" + r.Name }

// Parent holds the reference to the parent Subscription.
type Parent struct {
	// SubscriptionRef names the parent Subscription.
	SubscriptionRef Reference `json:"subscriptionRef"`
}

// UsageSource selects metered workloads; at least one field is set.
type UsageSource struct {
	// ResourceType is a workload kind: Deployment, StatefulSet, Pod,
	// DaemonSet, Job, CronJob or ReplicaSet.
	ResourceType string `json:"resourceType,omitempty"`
	// Name matches the workload's name (a pod name when ResourceType is
	// Pod).
	Name string `json:"name,omitempty"`
	// Namespace matches everything measured in that namespace.
	Namespace string `json:"namespace,omitempty"`
}

// Lifecycle is the Subscription's own lifecycle block. Its presence alone
// sets the parent-loss policy: OnParentDeactivate defaults to Deactivate
// whenever the block exists.
type Lifecycle struct {
	// OnParentDeactivate is PolicyDeactivate or PolicyOrphan; empty means
	// PolicyDeactivate.
	OnParentDeactivate string `json:"onParentDeactivate,omitempty"`
	// TargetRef names an object that must exist for the Subscription to
	// stay open.
	TargetRef *TargetRef `json:"targetRef,omitempty"`
}

// TargetRef names an object of any kind. Namespace is empty only for a
// cluster-scoped target.
type TargetRef struct {
	// APIVersion is the target's group/version, e.g. "apps/v1".
	APIVersion string `json:"apiVersion"`
	// Kind is the target's kind, e.g. "Deployment".
	Kind string `json:"kind"`
	// Name is the target's name.
	Name string `json:"name"`
	// Namespace is the target's namespace; empty when cluster-scoped.
	Namespace string `json:"namespace,omitempty"`
}

// Status is what the engine writes on a Subscription.
type Status struct {
	// Ready mirrors the Ready condition: "True" or "False".
	Ready metav1.ConditionStatus `json:"ready,omitempty"`
	// Conditions are Ready, Active, Deleting and CostsResolved, in that
	// order, each present only when it applies.
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// ActivatedAt is the first time all four gates passed; never moved.
	ActivatedAt *metav1.Time `json:"activatedAt,omitempty"`
	// DeactivatedAt is when the billing relationship ended; never moved
	// or cleared.
	DeactivatedAt *metav1.Time `json:"deactivatedAt,omitempty"`
	// CompatibilityRoot is the UID of the family's root Subscription,
	// stamped once.
	CompatibilityRoot string `json:"compatibilityRoot,omitempty"`
	// Costs holds the hour, day and month buckets of the last charge
	// collection run.
	Costs []billing.CostBucket `json:"costs,omitempty"`
}

// Key is the identity of a Subscription: its namespace and name.
func (s *Subscription) Key() Reference { return Reference{Namespace: s.Namespace, Name: s.Name} }

// IsActive reports whether the billing relationship is open: activatedAt
// set and no deactivatedAt. Readiness does not matter.
func (s *Subscription) IsActive() bool {
	return s.Status.ActivatedAt != nil && s.Status.DeactivatedAt == nil
}

// IsDeactivated reports whether deactivatedAt is set.
func (s *Subscription) IsDeactivated() bool { return s.Status.DeactivatedAt != nil }

// IsDeleting reports whether the Subscription has a deletion timestamp.
func (s *Subscription) IsDeleting() bool { return s.DeletionTimestamp != nil }
