package offeringtest_test

import (
	"fmt"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/offering/offeringtest"
)

func ExampleNew() {
	o := offeringtest.New("shop", "addon", offeringtest.Ready(),
		offeringtest.Requires(offeringtest.Ref("shop", "base")),
		offeringtest.Meter(finopsv1.MeterCPUHour, offeringtest.Factor(1150)))
	fmt.Println(o.Key(), o.IsReady(), o.Spec.Compatibility.RequiredOfferings[0], *o.Spec.Pricing.ResourcePricing[0].Margins.FactorMilli)
	// Output: shop/addon true shop/base 1150
}
