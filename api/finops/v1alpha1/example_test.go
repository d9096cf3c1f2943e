package v1alpha1_test

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/condengine/condengine/api/finops/v1alpha1"
)

// A host registers the group in its scheme; every kind and its List is
// then known by its GroupVersionKind, and every object deep-copies.
func Example() {
	scheme := runtime.NewScheme()
	if err := v1alpha1.AddToScheme(scheme); err != nil {
		fmt.Println(err)
		return
	}
	sub := &v1alpha1.Subscription{
		ObjectMeta: metav1.ObjectMeta{Name: "team-a", Namespace: "billing", Finalizers: []string{v1alpha1.SubscriptionFinalizer}},
		Spec:       v1alpha1.SubscriptionSpec{OfferingRef: v1alpha1.Reference{Name: "gold", Namespace: "catalog"}},
	}
	gvks, _, err := scheme.ObjectKinds(sub)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(gvks[0], sub.Spec.OfferingRef, sub.Finalizers[0])
	copied := sub.DeepCopyObject().(*v1alpha1.Subscription)
	copied.Finalizers[0] = "changed"
	fmt.Println(sub.Finalizers[0] == v1alpha1.SubscriptionFinalizer)
	for _, kind := range []string{v1alpha1.KindPriceBook, v1alpha1.KindOffering, v1alpha1.KindCostJob, v1alpha1.KindFinOpsProvider} {
		fmt.Println(kind, scheme.Recognizes(v1alpha1.GroupVersion.WithKind(kind+"List")))
	}
	// Output:
	// finops.stakater.com/v1alpha1, Kind=Subscription catalog/gold subscriptions.finops.stakater.com/finalizer
	// true
	// PriceBook true
	// Offering true
	// CostJob true
	// FinOpsProvider true
}
