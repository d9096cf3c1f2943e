package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Subscription opens a billing relationship between a subscriber and an
// Offering, optionally inside a family of Subscriptions linked by parent.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Namespaced,categories=finops
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.ready`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type Subscription struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec names the Offering, the parent and what is metered.
	// +kubebuilder:pruning:PreserveUnknownFields
	Spec SubscriptionSpec `json:"spec"`
	// Status is what the engine writes.
	// +kubebuilder:pruning:PreserveUnknownFields
	Status SubscriptionStatus `json:"status,omitempty"`
}

// SubscriptionSpec is what the user writes on a Subscription. offeringRef
// and parent are immutable once created; usageSources and lifecycle may
// be edited.
type SubscriptionSpec struct {
	// OfferingRef names the Offering this Subscription binds to.
	OfferingRef Reference `json:"offeringRef"`
	// Parent links the Subscription into a family; nil for a root.
	// +kubebuilder:pruning:PreserveUnknownFields
	Parent *Parent `json:"parent,omitempty"`
	// UsageSources selects the workloads whose usage is metered. Entries
	// OR together; the fields of one entry AND together.
	UsageSources []UsageSource `json:"usageSources,omitempty"`
	// Lifecycle overrides the Offering's parent-loss policy and names an
	// object whose existence the Subscription depends on.
	// +kubebuilder:pruning:PreserveUnknownFields
	Lifecycle *SubscriptionLifecycle `json:"lifecycle,omitempty"`
}

// Parent holds the reference to the parent Subscription.
type Parent struct {
	// SubscriptionRef names the parent Subscription.
	SubscriptionRef Reference `json:"subscriptionRef"`
}

// UsageSource selects metered workloads; at least one field is set.
//
// +kubebuilder:pruning:PreserveUnknownFields
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

// SubscriptionLifecycle is the Subscription's own lifecycle block. Its
// presence alone sets the parent-loss policy: OnParentDeactivate defaults
// to Deactivate whenever the block exists.
type SubscriptionLifecycle struct {
	// OnParentDeactivate is PolicyDeactivate or PolicyOrphan; empty means
	// PolicyDeactivate.
	OnParentDeactivate string `json:"onParentDeactivate,omitempty"`
	// TargetRef names an object that must exist for the Subscription to
	// stay open.
	// +kubebuilder:pruning:PreserveUnknownFields
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

// SubscriptionStatus is what the engine writes on a Subscription.
type SubscriptionStatus struct {
	// Ready mirrors the Ready condition: "True" or "False".
	Ready metav1.ConditionStatus `json:"ready,omitempty"`
	// Conditions are Ready, Active, Deleting and CostsResolved, in that
	// order, each present only when it applies.
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type"`
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
	Costs []CostBucket `json:"costs,omitempty"`
}

// Granularity names a cost bucket's window.
//
// +kubebuilder:validation:Enum=hour;day;month
type Granularity string

// The three bucket granularities, in the order status.costs lists them.
const (
	GranularityHour  Granularity = "hour"
	GranularityDay   Granularity = "day"
	GranularityMonth Granularity = "month"
)

// CostBucket is one entry of a Subscription's status.costs. Zero amounts
// are left out of the JSON (absent means zero).
type CostBucket struct {
	// Granularity is hour, day or month.
	Granularity Granularity `json:"granularity"`
	// Start is the window's first instant.
	Start metav1.Time `json:"start"`
	// EndExclusive is the first instant after the window.
	EndExclusive metav1.Time `json:"endExclusive"`
	// Current is what has been charged inside the window up to the run's
	// scheduled hour: fee ticks crossed plus the host's usage.
	Current int64 `json:"current,omitempty"`
	// Projected is the subscription fee for the whole window, after the
	// deactivation cut-off; never usage.
	Projected int64 `json:"projected,omitempty"`
	// Breakdown splits the bucket by meter: the subscription fee first,
	// then usage meters by name.
	Breakdown []CostMetric `json:"breakdown,omitempty"`
}

// CostMetric is one meter's share of a bucket.
type CostMetric struct {
	// Name is the meter: "subscription" or a usage meter name.
	Name string `json:"name"`
	// Current is the meter's charge so far in the window.
	Current int64 `json:"current,omitempty"`
	// Projected is set for the subscription fee only.
	Projected int64 `json:"projected,omitempty"`
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

// SubscriptionList is a list of Subscriptions.
//
// +kubebuilder:object:root=true
type SubscriptionList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	// Items are the Subscriptions.
	Items []Subscription `json:"items"`
}
