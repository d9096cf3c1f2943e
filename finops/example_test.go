package finops_test

import (
	"fmt"

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
	first := finops.Evaluate(s)
	fmt.Println("first:", first.Offerings.Offerings[0].Status.Conditions[0].Reason)
	settled, rounds, err := finops.Settle(s, 10)
	if err != nil {
		fmt.Println(err)
		return
	}
	o := settled.Offerings[0]
	fmt.Println("rounds:", rounds, "ready:", o.Status.Ready, "cpuHour:", o.Status.ResolvedPricing.Meters[0].UnitPriceMicros)
	fmt.Println("OpenCost CPU:", settled.PricingDocument["CPU"])
	// Output:
	// first: NoActivePricebook
	// rounds: 2 ready: True cpuHour: 31200
	// OpenCost CPU: 0.031
}
