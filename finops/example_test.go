package finops_test

import (
	"fmt"
	"time"

	"github.com/condengine/condengine/finops"
)

// A fresh cluster: one PriceBook and a metered Offering. The first
// evaluation elects the book; the Offering prices once the book's
// status.active is stored, so it settles on the second.
func ExampleSettle() {
	s, err := finops.Decode([]byte(`
apiVersion: finops.stakater.com/v1alpha1
kind: PriceBook
metadata: {namespace: finops, name: standard, generation: 1}
spec: {currency: EUR, valuationMode: currency, rates: {cpuHour: "0.031"}}
---
apiVersion: finops.stakater.com/v1alpha1
kind: Offering
metadata: {namespace: shop, name: compute, generation: 1}
spec:
  pricing:
    resourcePricing:
      - {name: cpuHour, margins: {absoluteMicros: 200}}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	s.Now = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC) // manifests carry no now: the host's clock, read once
	first, err := finops.Evaluate(s)
	if err != nil {
		fmt.Println(err)
		return
	}
	o := first.Offerings.Offerings[0]
	fmt.Println("first:", o.Kind, o.Namespace+"/"+o.Name, o.Conditions[0].Reason, "write:", o.Write, "retry:", o.Retry)
	settled, rounds, err := finops.Settle(s, 10)
	if err != nil {
		fmt.Println(err)
		return
	}
	off := settled.Offerings[0]
	fmt.Println("rounds:", rounds, "ready:", off.Status.Ready, "cpuHour:", off.Status.ResolvedPricing.Meters[0].UnitPriceMicros)
	fmt.Println("OpenCost CPU:", settled.PricingDocument["CPU"])
	// Output:
	// first: Offering shop/compute NoActivePricebook write: true retry: true
	// rounds: 2 ready: True cpuHour: 31200
	// OpenCost CPU: 0.031
}
