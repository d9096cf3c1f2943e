package pricebook

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// APIVersion and Kind identify a PriceBook manifest.
const (
	APIVersion = "finops.stakater.com/v1alpha1"
	Kind       = "PriceBook"
)

// ActiveAnnotation pins a book as the active one when its value is
// exactly "true".
const ActiveAnnotation = "finops.stakater.com/active"

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
type PriceBook struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   Spec   `json:"spec"`
	Status Status `json:"status,omitempty"`
}

// Spec is what the user writes on a PriceBook.
type Spec struct {
	// Currency is an ISO 4217 label; no conversion ever happens.
	Currency string `json:"currency,omitempty"`
	// ValuationMode is ValuationCurrency or ValuationPercent.
	ValuationMode string `json:"valuationMode,omitempty"`
	// Rates holds the decimal rate strings; nil when the block is absent,
	// which prices every rate at zero.
	Rates *Rates `json:"rates,omitempty"`
}

// Rates are decimal strings in currency units per unit of usage. An empty
// or unset rate is zero.
type Rates struct {
	CPUHour       string `json:"cpuHour,omitempty"`
	SpotCPUHour   string `json:"spotCPUHour,omitempty"`
	RAMGbHour     string `json:"ramGbHour,omitempty"`
	SpotRAMGbHour string `json:"spotRAMGbHour,omitempty"`
	PVGbHour      string `json:"pvGbHour,omitempty"`
	GPUHour       string `json:"gpuHour,omitempty"`
	NetworkGiB    string `json:"networkGiB,omitempty"`
}

// Status is what the engine writes on a PriceBook.
type Status struct {
	// Active is true only on the book holding the active slot. It is
	// always written, false included, so kubectl's ACTIVE column is never
	// blank after a reconcile.
	Active bool `json:"active"`
	// Ready mirrors the Ready condition: "True" or "False".
	Ready metav1.ConditionStatus `json:"ready,omitempty"`
	// Conditions are Ready and, once the book has changed hands, Active.
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// ActivePricing mirrors the OpenCost pricing document; set only on
	// the book that is both active and ready.
	ActivePricing map[string]string `json:"activePricing,omitempty"`
}
