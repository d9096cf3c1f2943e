package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// SingletonName is the only name a FinOpsProvider may have.
const SingletonName = "default"

// PricingModelPricebook is the one pricingModelSource value the
// reconciler acts on.
const PricingModelPricebook = "Pricebook"

// FinOpsProvider is the cluster's one cost provider setting, named
// default. It carries no conditions and its status is never written.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Cluster,categories=finops
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:validation:XValidation:rule="self.metadata.name == 'default'",message="FinOpsProvider must be named 'default' (singleton)."
type FinOpsProvider struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec holds exactly one provider option block.
	// +kubebuilder:pruning:PreserveUnknownFields
	// +kubebuilder:validation:XValidation:rule="has(self.awsoptions) || has(self.gcpoptions) || has(self.azureoptions) || has(self.onpremoptions)",message="At least one provider option (awsoptions, gcpoptions, azureoptions, onpremoptions) must be set"
	// +kubebuilder:validation:XValidation:rule="(has(self.awsoptions) ? 1 : 0) + (has(self.gcpoptions) ? 1 : 0) + (has(self.azureoptions) ? 1 : 0) + (has(self.onpremoptions) ? 1 : 0) <= 1",message="Exactly one provider option (awsoptions, gcpoptions, azureoptions, onpremoptions) must be set"
	Spec FinOpsProviderSpec `json:"spec,omitempty"`
	// Status is declared and stays empty; its schema names no field, so
	// status.conditions is not part of the API a user relies on.
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:validation:Type=object
	// +kubebuilder:pruning:PreserveUnknownFields
	Status FinOpsProviderStatus `json:"status,omitempty"`
}

// FinOpsProviderSpec holds exactly one provider option block.
type FinOpsProviderSpec struct {
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
//
// +kubebuilder:pruning:PreserveUnknownFields
type CloudOptions struct {
	// CloudIntegrationSecret is handed to OpenCost verbatim; it is never
	// resolved as a Secret reference, and never shown in a message.
	CloudIntegrationSecret string `json:"cloudIntegrationSecret,omitempty"`
	// PricingModelSource turns OpenCost custom pricing on when it is
	// exactly PricingModelPricebook.
	PricingModelSource string `json:"pricingModelSource,omitempty"`
}

// OnPremOptions is the on-premises block.
//
// +kubebuilder:pruning:PreserveUnknownFields
type OnPremOptions struct {
	// PricingModelSource is read but changes nothing: on-premises always
	// turns custom pricing on.
	PricingModelSource string `json:"pricingModelSource,omitempty"`
}

// FinOpsProviderStatus is what the CRD declares; no field is ever
// written.
type FinOpsProviderStatus struct {
	// LastSyncTime is declared and never written.
	LastSyncTime *metav1.Time `json:"lastSyncTime,omitempty"`
	// ObservedGeneration is declared and never written.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Conditions is declared and never written.
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// FinOpsProviderList is a list of FinOpsProviders.
//
// +kubebuilder:object:root=true
type FinOpsProviderList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	// Items are the FinOpsProviders.
	Items []FinOpsProvider `json:"items"`
}
