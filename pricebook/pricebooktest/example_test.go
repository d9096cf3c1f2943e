package pricebooktest_test

import (
	"fmt"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/pricebook"
	"github.com/condengine/condengine/pricebook/pricebooktest"
)

func ExampleNew() {
	b := pricebooktest.New("finops", "standard", pricebooktest.Annotated("true"),
		pricebooktest.Rate(pricebook.CPUHour, "0.031"))
	fmt.Println(b.Namespace, b.Name, b.Spec.ValuationMode, b.Spec.Rates.CPUHour, b.Annotations[finopsv1.ActiveAnnotation])
	// Output: finops standard currency 0.031 true
}
