package pricebook_test

import (
	"fmt"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/pricebook"
)

// Two books: the newer one wins the empty cluster's election although
// its GPU rate has seven decimals; it is Active but not Ready, so
// nothing reaches OpenCost.
func ExampleEvaluate() {
	created := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	book := func(name string, age time.Duration, gpu string) finopsv1.PriceBook {
		return finopsv1.PriceBook{
			ObjectMeta: metav1.ObjectMeta{Namespace: "finops", Name: name, Generation: 1,
				CreationTimestamp: metav1.NewTime(created.Add(-age))},
			Spec: finopsv1.PriceBookSpec{Currency: "EUR", ValuationMode: finopsv1.ValuationCurrency,
				Rates: &finopsv1.Rates{CPUHour: "0.031", GPUHour: gpu}},
		}
	}
	books := []finopsv1.PriceBook{book("standard", time.Hour, "1.80"), book("draft", 0, "1.8000001")}
	r, err := pricebook.Evaluate(books, nil, time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range r.Books {
		fmt.Printf("%s %s active=%v ready=%s write=%v\n", o.Kind, o.Name, o.Status.Active, o.Status.Ready, o.Write)
		for _, c := range o.Status.Conditions {
			fmt.Println(strings.TrimRight(fmt.Sprintf("  %s=%s %s %s", c.Type, c.Status, c.Reason, c.Message), " "))
		}
	}
	fmt.Println("pushed:", r.Document != nil)
	// Output:
	// PriceBook draft active=true ready=False write=true
	//   Ready=False PricebookParseFailed rate "gpuHour" ("1.8000001"): more than 6 decimal places cannot be held in micro-units
	//   Active=True Activated
	// PriceBook standard active=false ready=True write=true
	//   Ready=True ValidationSucceeded
	// pushed: false
}

func ExampleParseRate() {
	for _, s := range []string{"0.031", "1.80", "", "3e-2"} {
		v, err := pricebook.ParseRate(s)
		fmt.Println(v, err)
	}
	// Output:
	// 31000 <nil>
	// 1800000 <nil>
	// 0 <nil>
	// 0 exponent notation is not allowed
}
