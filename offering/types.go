package offering

import (
	"github.com/condengine/condengine/api/finops/v1alpha1"
)

// The Offering API types are declared in api/finops/v1alpha1; the names
// below are aliases kept so that existing callers compile unchanged. New
// code should import v1alpha1.

// APIVersion and Kind identify an Offering manifest.
const (
	APIVersion = v1alpha1.APIVersion
	Kind       = v1alpha1.KindOffering
)

// Finalizer is the finalizer the Offering reconciler owns.
const Finalizer = v1alpha1.OfferingFinalizer

// Tick alignments of spec.pricing.subscriptionFee.tickAlignment.
const (
	AlignActivatedAt   = v1alpha1.AlignActivatedAt
	AlignHourBoundary  = v1alpha1.AlignHourBoundary
	AlignDayBoundary   = v1alpha1.AlignDayBoundary
	AlignMonthBoundary = v1alpha1.AlignMonthBoundary
)

// Parent-loss policies of spec.lifecycle.onParentDeactivate.
const (
	PolicyDeactivate = v1alpha1.PolicyDeactivate
	PolicyOrphan     = v1alpha1.PolicyOrphan
)

// Meter names of spec.pricing.resourcePricing[].name.
const (
	MeterSubscription = v1alpha1.MeterSubscription
	MeterCPUHour      = v1alpha1.MeterCPUHour
	MeterGPUHour      = v1alpha1.MeterGPUHour
	MeterRAMGbHour    = v1alpha1.MeterRAMGbHour
	MeterPVGbHour     = v1alpha1.MeterPVGbHour
	MeterNetworkGb    = v1alpha1.MeterNetworkGb
)

// Aliases of the v1alpha1 types.
type (
	// Offering is v1alpha1.Offering.
	Offering = v1alpha1.Offering
	// Spec is v1alpha1.OfferingSpec.
	Spec = v1alpha1.OfferingSpec
	// Pricing is v1alpha1.Pricing.
	Pricing = v1alpha1.Pricing
	// SubscriptionFee is v1alpha1.SubscriptionFee.
	SubscriptionFee = v1alpha1.SubscriptionFee
	// ResourcePricing is v1alpha1.ResourcePricing.
	ResourcePricing = v1alpha1.ResourcePricing
	// Margins is v1alpha1.Margins.
	Margins = v1alpha1.Margins
	// Compatibility is v1alpha1.Compatibility.
	Compatibility = v1alpha1.Compatibility
	// Reference is v1alpha1.Reference, shared with subscription.
	Reference = v1alpha1.Reference
	// Lifecycle is v1alpha1.OfferingLifecycle.
	Lifecycle = v1alpha1.OfferingLifecycle
	// Status is v1alpha1.OfferingStatus.
	Status = v1alpha1.OfferingStatus
	// ResolvedPricing is v1alpha1.ResolvedPricing.
	ResolvedPricing = v1alpha1.ResolvedPricing
	// ResolvedMeter is v1alpha1.ResolvedMeter.
	ResolvedMeter = v1alpha1.ResolvedMeter
)
