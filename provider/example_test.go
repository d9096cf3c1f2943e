package provider_test

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/provider"
)

func ExampleValidate() {
	p := finopsv1.FinOpsProvider{ObjectMeta: metav1.ObjectMeta{Name: "mine"}}
	for _, err := range provider.Validate(&p) {
		fmt.Println(err.Detail)
	}
	// Output:
	// FinOpsProvider must be named 'default' (singleton).
	// At least one provider option (awsoptions, gcpoptions, azureoptions, onpremoptions) must be set
	// Exactly one provider option (awsoptions, gcpoptions, azureoptions, onpremoptions) must be set
}

func ExampleEvaluate() {
	p := finopsv1.FinOpsProvider{
		ObjectMeta: metav1.ObjectMeta{Name: "default"},
		Spec:       finopsv1.FinOpsProviderSpec{AWSOptions: &finopsv1.CloudOptions{PricingModelSource: "Pricebook"}},
	}
	plan := provider.Evaluate(&p)
	fmt.Printf("branch=%q log=%q\n", plan.Branch, plan.Log)
	// Output:
	// branch="" log="No valid provider option configured"
}
