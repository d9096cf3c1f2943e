package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Valuation modes of spec.valuationMode.
const (
	// ValuationCurrency books carry rates that price usage.
	ValuationCurrency = "currency"
	// ValuationPercent books carry no rates the engine parses; they are
	// ready without parsing and never price an Offering.
	ValuationPercent = "percent"
)

// PriceBook is the cluster's price list for measured resources. Many
// books may exist; one holds the active slot at a time.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Namespaced,categories=finops
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Active",type=boolean,JSONPath=`.status.active`
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.ready`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type PriceBook struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the book's currency, mode and rates.
	// +kubebuilder:pruning:PreserveUnknownFields
	Spec PriceBookSpec `json:"spec"`
	// Status is what the engine writes.
	// +kubebuilder:pruning:PreserveUnknownFields
	Status PriceBookStatus `json:"status,omitempty"`
}

// PriceBookSpec is what the user writes on a PriceBook.
type PriceBookSpec struct {
	// Currency is an ISO 4217 label; no conversion ever happens.
	// +kubebuilder:validation:Pattern=`^[A-Z]{3}$`
	Currency string `json:"currency,omitempty"`
	// ValuationMode is currency or percent.
	// +kubebuilder:validation:Enum=currency;percent
	ValuationMode string `json:"valuationMode,omitempty"`
	// Rates holds the decimal rate strings; nil when the block is absent,
	// which prices every rate at zero.
	// +kubebuilder:pruning:PreserveUnknownFields
	Rates *Rates `json:"rates,omitempty"`
}

// Rates are decimal strings in currency units per unit of usage. An empty
// or unset rate is zero.
type Rates struct {
	// CPUHour prices one CPU core for one hour.
	CPUHour string `json:"cpuHour,omitempty"`
	// SpotCPUHour prices one spot CPU core for one hour.
	SpotCPUHour string `json:"spotCPUHour,omitempty"`
	// RAMGbHour prices one GB of memory for one hour.
	RAMGbHour string `json:"ramGbHour,omitempty"`
	// SpotRAMGbHour prices one GB of spot memory for one hour.
	SpotRAMGbHour string `json:"spotRAMGbHour,omitempty"`
	// PVGbHour prices one GB of persistent volume for one hour.
	PVGbHour string `json:"pvGbHour,omitempty"`
	// GPUHour prices one GPU for one hour.
	GPUHour string `json:"gpuHour,omitempty"`
	// NetworkGiB prices one GiB of network egress.
	NetworkGiB string `json:"networkGiB,omitempty"`
}

// PriceBookStatus is what the engine writes on a PriceBook.
type PriceBookStatus struct {
	// Active is true only on the book holding the active slot. It is
	// always written, false included, so kubectl's ACTIVE column is never
	// blank after a reconcile.
	Active bool `json:"active"`
	// Ready mirrors the Ready condition: "True" or "False".
	Ready metav1.ConditionStatus `json:"ready,omitempty"`
	// Conditions are Ready and, once the book has changed hands, Active.
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type"`
	// ActivePricing mirrors the OpenCost pricing document; set only on
	// the book that is both active and ready.
	ActivePricing map[string]string `json:"activePricing,omitempty"`
}

// PriceBookList is a list of PriceBooks.
//
// +kubebuilder:object:root=true
type PriceBookList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	// Items are the PriceBooks.
	Items []PriceBook `json:"items"`
}
