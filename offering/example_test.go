package offering_test

import (
	"fmt"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/offering"
)

// A metered Offering prices against the active book with a 15% margin;
// another requires it and an Offering that does not exist.
func ExampleEvaluate() {
	factor := int64(1150)
	meta := func(name string) metav1.ObjectMeta {
		return metav1.ObjectMeta{Namespace: "shop", Name: name, Generation: 1, Finalizers: []string{finopsv1.OfferingFinalizer}}
	}
	offs := []finopsv1.Offering{
		{ObjectMeta: meta("compute"), Spec: finopsv1.OfferingSpec{Pricing: finopsv1.Pricing{
			ResourcePricing: []finopsv1.ResourcePricing{{Name: finopsv1.MeterCPUHour, Margins: &finopsv1.Margins{FactorMilli: &factor}}}}}},
		{ObjectMeta: meta("bundle"), Spec: finopsv1.OfferingSpec{Compatibility: &finopsv1.Compatibility{
			RequiredOfferings: []finopsv1.Reference{{Namespace: "shop", Name: "compute"}, {Namespace: "shop", Name: "storage"}}}}},
	}
	books := []finopsv1.PriceBook{{
		ObjectMeta: metav1.ObjectMeta{Namespace: "finops", Name: "standard"},
		Spec:       finopsv1.PriceBookSpec{ValuationMode: finopsv1.ValuationCurrency, Rates: &finopsv1.Rates{CPUHour: "0.031"}},
		Status:     finopsv1.PriceBookStatus{Active: true},
	}}
	r, err := offering.Evaluate(offering.Snapshot{Now: time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC), Offerings: offs, PriceBooks: books})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range r.Offerings {
		c := o.Conditions[0]
		fmt.Println(strings.TrimSpace(fmt.Sprint(o.Kind, " ", o.Name, " write=", o.Write, " retry=", o.Retry, " ",
			c.Status, " ", c.Reason, " ", c.Message)))
		if p := o.Status.ResolvedPricing; p != nil {
			fmt.Println("  ", p.Meters[0].Name, p.Meters[0].UnitPriceMicros)
		}
	}
	// Output:
	// Offering bundle write=true retry=true False RequiredOfferingNotReady required offering shop/compute is not ready
	// Offering compute write=true retry=false True ValidationSucceeded
	//    cpuHour 35650
}
