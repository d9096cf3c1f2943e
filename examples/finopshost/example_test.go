package finopshost_test

import (
	"context"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/condengine/condengine/examples/ctrlplan"
	"github.com/condengine/condengine/examples/finopshost"
)

// One pass over a cluster with a single PriceBook: the election makes it
// active and its status is written.
func ExampleHost_RunOnce() {
	book := &unstructured.Unstructured{Object: map[string]any{
		"spec": map[string]any{"currency": "EUR", "valuationMode": "currency", "rates": map[string]any{"cpuHour": "0.03"}},
	}}
	book.SetGroupVersionKind(finopshost.PriceBookGVK)
	book.SetNamespace("finops")
	book.SetName("standard")
	book.SetGeneration(1)
	c := ctrlplan.NewFakeClientBuilder().WithObjects(book).Build()

	h, _ := finopshost.New(c, "finops")
	report, err := h.RunOnce(context.Background(), time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, w := range report.Written {
		fmt.Println(w)
	}
	// Output:
	// PriceBook finops/standard
	// ConfigMap finops/finops-operator-custom-pricing-configs
}
