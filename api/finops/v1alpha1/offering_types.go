package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Tick alignments of spec.pricing.subscriptionFee.tickAlignment.
const (
	AlignActivatedAt   = "ActivatedAt"
	AlignHourBoundary  = "HourBoundary"
	AlignDayBoundary   = "DayBoundary"
	AlignMonthBoundary = "MonthBoundary"
)

// Meter names of spec.pricing.resourcePricing[].name.
const (
	MeterSubscription = "subscription"
	MeterCPUHour      = "cpuHour"
	MeterGPUHour      = "gpuHour"
	MeterRAMGbHour    = "ramGbHour"
	MeterPVGbHour     = "pvGbHour"
	MeterNetworkGb    = "networkGb"
)

// Offering is a product a Subscription binds to: its price, priced
// against the active PriceBook, and what it requires elsewhere in the
// subscriber's family. Its spec is immutable.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Namespaced,categories=finops
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.ready`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type Offering struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the Offering's pricing, compatibility and lifecycle. Its
	// schema names no field: the engine reports a malformed requirement
	// (no name, no namespace) in PricingResolved, which a stricter schema
	// would have the API server refuse before the engine saw it.
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:validation:Type=object
	// +kubebuilder:pruning:PreserveUnknownFields
	Spec OfferingSpec `json:"spec"`
	// Status is what the engine writes.
	// +kubebuilder:pruning:PreserveUnknownFields
	Status OfferingStatus `json:"status,omitempty"`
}

// OfferingSpec is what the user writes on an Offering.
type OfferingSpec struct {
	// Pricing is the fee and the metered prices.
	// +kubebuilder:pruning:PreserveUnknownFields
	Pricing Pricing `json:"pricing"`
	// Compatibility lists the Offerings a subscriber's family must hold.
	// +kubebuilder:pruning:PreserveUnknownFields
	Compatibility *Compatibility `json:"compatibility,omitempty"`
	// Lifecycle is the default parent-loss policy of its Subscriptions.
	// +kubebuilder:pruning:PreserveUnknownFields
	Lifecycle *OfferingLifecycle `json:"lifecycle,omitempty"`
}

// Pricing is the fee and the metered prices of an Offering. Both parts
// are optional; an empty Pricing charges nothing.
type Pricing struct {
	// SubscriptionFee is the recurring fee.
	SubscriptionFee *SubscriptionFee `json:"subscriptionFee,omitempty"`
	// ResourcePricing prices meters from the active PriceBook's rates.
	ResourcePricing []ResourcePricing `json:"resourcePricing,omitempty"`
}

// SubscriptionFee is the recurring fee, charged at every tick boundary.
//
// +kubebuilder:pruning:PreserveUnknownFields
type SubscriptionFee struct {
	// PriceMicros is charged per tick, in micro-units of the currency.
	PriceMicros int64 `json:"priceMicros"`
	// Period is the tick length; its form depends on TickAlignment.
	Period string `json:"period"`
	// TickAlignment is one of the Align* constants.
	TickAlignment string `json:"tickAlignment"`
	// MinPeriods is the cleanup guard; nil when unset.
	MinPeriods *int64 `json:"minPeriods,omitempty"`
}

// ResourcePricing prices one meter from the active PriceBook's rate.
//
// +kubebuilder:pruning:PreserveUnknownFields
type ResourcePricing struct {
	// Name is one of the Meter* constants.
	Name string `json:"name"`
	// Margins adjusts the book's rate; nil leaves it unchanged.
	Margins *Margins `json:"margins,omitempty"`
}

// Margins adjusts a rate: set at most one of the two.
//
// +kubebuilder:pruning:PreserveUnknownFields
type Margins struct {
	// AbsoluteMicros is added to the rate.
	AbsoluteMicros *int64 `json:"absoluteMicros,omitempty"`
	// FactorMilli multiplies the rate by FactorMilli/1000, rounded down.
	FactorMilli *int64 `json:"factorMilli,omitempty"`
}

// Compatibility lists the Offerings a subscriber's family must also hold.
type Compatibility struct {
	// RequiredOfferings name Offerings; Namespace is never defaulted.
	RequiredOfferings []Reference `json:"requiredOfferings,omitempty"`
}

// OfferingLifecycle is the Offering's default parent-loss policy for its
// Subscriptions.
type OfferingLifecycle struct {
	// OnParentDeactivate is PolicyDeactivate or PolicyOrphan.
	OnParentDeactivate string `json:"onParentDeactivate,omitempty"`
	// AllowOverride is declared by the CRD and read by nothing.
	AllowOverride bool `json:"allowOverride,omitempty"`
}

// OfferingStatus is what the engine writes on an Offering.
type OfferingStatus struct {
	// Ready mirrors the Ready condition: "True" or "False".
	Ready metav1.ConditionStatus `json:"ready,omitempty"`
	// Conditions are Ready, PricingResolved and, while deleting, Deleting.
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type"`
	// ResolvedPricing is published once and then kept unchanged.
	// +kubebuilder:pruning:PreserveUnknownFields
	ResolvedPricing *ResolvedPricing `json:"resolvedPricing,omitempty"`
}

// ResolvedPricing is the price list an Offering published.
type ResolvedPricing struct {
	// ResolvedAt is when the pricing was resolved; it never moves.
	ResolvedAt metav1.Time `json:"resolvedAt"`
	// Meters holds one entry per declared meter; empty (not absent) when
	// the Offering has no metered pricing.
	Meters []ResolvedMeter `json:"meters"`
	// SubscriptionFee is the spec's fee block copied as written.
	SubscriptionFee *SubscriptionFee `json:"subscriptionFee,omitempty"`
}

// ResolvedMeter is one meter's unit price after margins.
type ResolvedMeter struct {
	// Name is the meter's name.
	Name string `json:"name"`
	// UnitPriceMicros is the price of one unit, in currency micro-units.
	UnitPriceMicros int64 `json:"unitPriceMicros"`
}

// Key is the identity of an Offering: its namespace and name.
func (o *Offering) Key() Reference { return Reference{Namespace: o.Namespace, Name: o.Name} }

// IsReady reports whether status.ready is "True", the only value the
// rules that read another Offering's readiness accept.
func (o *Offering) IsReady() bool { return o.Status.Ready == metav1.ConditionTrue }

// IsDeleting reports whether the Offering has a deletion timestamp.
func (o *Offering) IsDeleting() bool { return o.DeletionTimestamp != nil }

// OfferingList is a list of Offerings.
//
// +kubebuilder:object:root=true
type OfferingList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	// Items are the Offerings.
	Items []Offering `json:"items"`
}
