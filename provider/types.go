package provider

import (
	"github.com/condengine/condengine/api/finops/v1alpha1"
)

// The FinOpsProvider API types are declared in api/finops/v1alpha1; the
// names below are aliases kept so that existing callers compile
// unchanged. New code should import v1alpha1.

// APIVersion and Kind identify a FinOpsProvider manifest.
const (
	APIVersion = v1alpha1.APIVersion
	Kind       = v1alpha1.KindFinOpsProvider
)

// SingletonName is the only name a FinOpsProvider may have.
const SingletonName = v1alpha1.SingletonName

// PricingModelPricebook is the one pricingModelSource value the
// reconciler acts on.
const PricingModelPricebook = v1alpha1.PricingModelPricebook

// Aliases of the v1alpha1 types.
type (
	// FinOpsProvider is v1alpha1.FinOpsProvider.
	FinOpsProvider = v1alpha1.FinOpsProvider
	// Spec is v1alpha1.FinOpsProviderSpec.
	Spec = v1alpha1.FinOpsProviderSpec
	// CloudOptions is v1alpha1.CloudOptions.
	CloudOptions = v1alpha1.CloudOptions
	// OnPremOptions is v1alpha1.OnPremOptions.
	OnPremOptions = v1alpha1.OnPremOptions
	// Status is v1alpha1.FinOpsProviderStatus.
	Status = v1alpha1.FinOpsProviderStatus
)
