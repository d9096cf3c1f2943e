package provider

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// APIVersion and Kind identify a FinOpsProvider manifest.
const (
	APIVersion = "finops.stakater.com/v1alpha1"
	Kind       = "FinOpsProvider"
)

// SingletonName is the only name a FinOpsProvider may have.
const SingletonName = "default"

// PricingModelPricebook is the one pricingModelSource value the
// reconciler acts on.
const PricingModelPricebook = "Pricebook"

// FinOpsProvider is the cluster's cost provider setting. It carries no
// conditions and its status is never written.
type FinOpsProvider struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec Spec `json:"spec,omitempty"`
	// Status is declared by the CRD and stays empty.
	Status Status `json:"status,omitempty"`
}

// Spec holds exactly one provider option block.
type Spec struct {
	// AWSOptions selects AWS.
	AWSOptions *CloudOptions `json:"awsoptions,omitempty"`
	// GCPOptions selects Google Cloud.
	GCPOptions *CloudOptions `json:"gcpoptions,omitempty"`
	// AzureOptions selects Azure.
	AzureOptions *CloudOptions `json:"azureoptions,omitempty"`
	// OnPremOptions selects on-premises pricing.
	OnPremOptions *OnPremOptions `json:"onpremoptions,omitempty"`
}

// CloudOptions is the block of a cloud provider.
type CloudOptions struct {
	// CloudIntegrationSecret is handed to OpenCost verbatim; it is never
	// resolved as a Secret reference, and never shown in a message.
	CloudIntegrationSecret string `json:"cloudIntegrationSecret,omitempty"`
	// PricingModelSource turns OpenCost custom pricing on when it is
	// exactly PricingModelPricebook.
	PricingModelSource string `json:"pricingModelSource,omitempty"`
}

// OnPremOptions is the on-premises block.
type OnPremOptions struct {
	// PricingModelSource is read but changes nothing: on-premises always
	// turns custom pricing on.
	PricingModelSource string `json:"pricingModelSource,omitempty"`
}

// Status is what the CRD declares; no field is ever written.
type Status struct {
	// LastSyncTime is declared and never written.
	LastSyncTime *metav1.Time `json:"lastSyncTime,omitempty"`
	// ObservedGeneration is declared and never written.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Conditions is declared and never written.
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}
