package offering

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// APIVersion and Kind identify an Offering manifest.
const (
	APIVersion = "finops.stakater.com/v1alpha1"
	Kind       = "Offering"
)

// Finalizer is the finalizer the Offering reconciler owns; it is dropped
// in the same result that writes Deleting=True DeletionAllowed.
const Finalizer = "offerings.finops.stakater.com/finalizer"

// Tick alignments of spec.pricing.subscriptionFee.tickAlignment.
const (
	AlignActivatedAt   = "ActivatedAt"
	AlignHourBoundary  = "HourBoundary"
	AlignDayBoundary   = "DayBoundary"
	AlignMonthBoundary = "MonthBoundary"
)

// Parent-loss policies of spec.lifecycle.onParentDeactivate.
const (
	PolicyDeactivate = "Deactivate"
	PolicyOrphan     = "Orphan"
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

// Offering is a product a Subscription binds to: its price and what it
// requires elsewhere in the subscriber's family. Its spec is immutable.
type Offering struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   Spec   `json:"spec"`
	Status Status `json:"status,omitempty"`
}

// Spec is what the user writes on an Offering.
type Spec struct {
	Pricing       Pricing        `json:"pricing"`
	Compatibility *Compatibility `json:"compatibility,omitempty"`
	Lifecycle     *Lifecycle     `json:"lifecycle,omitempty"`
}

// Pricing is the fee and the metered prices of an Offering. Both parts
// are optional; an empty Pricing charges nothing.
type Pricing struct {
	SubscriptionFee *SubscriptionFee  `json:"subscriptionFee,omitempty"`
	ResourcePricing []ResourcePricing `json:"resourcePricing,omitempty"`
}

// SubscriptionFee is the recurring fee, charged at every tick boundary.
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
type ResourcePricing struct {
	// Name is one of the Meter* constants.
	Name string `json:"name"`
	// Margins adjusts the book's rate; nil leaves it unchanged.
	Margins *Margins `json:"margins,omitempty"`
}

// Margins adjusts a rate: set at most one of the two.
type Margins struct {
	// AbsoluteMicros is added to the rate.
	AbsoluteMicros *int64 `json:"absoluteMicros,omitempty"`
	// FactorMilli multiplies the rate by FactorMilli/1000, rounded down.
	FactorMilli *int64 `json:"factorMilli,omitempty"`
}

// Compatibility lists the Offerings a subscriber's family must also hold.
type Compatibility struct {
	RequiredOfferings []Reference `json:"requiredOfferings,omitempty"`
}

// Reference names an Offering. Namespace is required and never defaulted
// from the referrer.
type Reference struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
}

// String is "namespace/name".
func (r Reference) String() string { return r.Namespace + "/" + r.Name }

// Lifecycle is the Offering's default parent-loss policy for its
// Subscriptions.
type Lifecycle struct {
	// OnParentDeactivate is PolicyDeactivate or PolicyOrphan.
	OnParentDeactivate string `json:"onParentDeactivate,omitempty"`
	// AllowOverride is declared by the CRD and read by nothing.
	AllowOverride bool `json:"allowOverride,omitempty"`
}

// Status is what the engine writes on an Offering.
type Status struct {
	// Ready mirrors the Ready condition: "True" or "False".
	Ready metav1.ConditionStatus `json:"ready,omitempty"`
	// Conditions are Ready, PricingResolved and, while deleting, Deleting.
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// ResolvedPricing is published once and then kept unchanged.
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
	Name            string `json:"name"`
	UnitPriceMicros int64  `json:"unitPriceMicros"`
}

// Key is the identity of an Offering: its namespace and name.
func (o *Offering) Key() Reference { return Reference{Namespace: o.Namespace, Name: o.Name} }

// IsReady reports whether status.ready is "True", the only value the
// rules that read another Offering's readiness accept.
func (o *Offering) IsReady() bool { return o.Status.Ready == metav1.ConditionTrue }

// IsDeleting reports whether the Offering has a deletion timestamp.
func (o *Offering) IsDeleting() bool { return o.DeletionTimestamp != nil }
