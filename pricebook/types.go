package pricebook

import (
	"github.com/condengine/condengine/api/finops/v1alpha1"
)

// The PriceBook API types are declared in api/finops/v1alpha1; the names
// below are aliases kept so that existing callers compile unchanged. New
// code should import v1alpha1.

// APIVersion and Kind identify a PriceBook manifest.
const (
	APIVersion = v1alpha1.APIVersion
	Kind       = v1alpha1.KindPriceBook
)

// ActiveAnnotation pins a book as the active one when its value is
// exactly "true".
const ActiveAnnotation = v1alpha1.ActiveAnnotation

// Valuation modes of spec.valuationMode.
const (
	ValuationCurrency = v1alpha1.ValuationCurrency
	ValuationPercent  = v1alpha1.ValuationPercent
)

// Aliases of the v1alpha1 types.
type (
	// PriceBook is v1alpha1.PriceBook.
	PriceBook = v1alpha1.PriceBook
	// Spec is v1alpha1.PriceBookSpec.
	Spec = v1alpha1.PriceBookSpec
	// Rates is v1alpha1.Rates.
	Rates = v1alpha1.Rates
	// Status is v1alpha1.PriceBookStatus.
	Status = v1alpha1.PriceBookStatus
)
