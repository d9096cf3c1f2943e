package ctrlplan

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/managedfields"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/config/crd"
)

// Scheme returns a scheme with client-go's kinds and every kind of the
// module.
func Scheme() *runtime.Scheme {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientgoscheme.AddToScheme, akv1.AddToScheme, finopsv1.AddToScheme} {
		if err := add(s); err != nil {
			panic(err) // registration of generated types cannot fail but for a programming error
		}
	}
	return s
}

// NewFakeClientBuilder returns controller-runtime's fake client builder
// set up for the module's kinds: Scheme, a status subresource for each
// kind that has one, managed fields returned on reads, and the type
// converter built from the embedded CRDs, so that server-side apply keeps
// one owner per condition as the API server does. Add objects and build.
// It panics only if the module's own CRDs did not convert, which the
// config/crd tests rule out.
func NewFakeClientBuilder() *fake.ClientBuilder {
	tc, err := crd.TypeConverter()
	if err != nil {
		panic(err) // the embedded CRDs are part of the module; their schema always converts
	}
	return fake.NewClientBuilder().
		WithScheme(Scheme()).
		WithStatusSubresource(&akv1.Binding{}, &akv1.AgentBackend{}, &akv1.ChatConnection{},
			&finopsv1.PriceBook{}, &finopsv1.Offering{}, &finopsv1.Subscription{}, &finopsv1.CostJob{}, &finopsv1.FinOpsProvider{}).
		WithReturnManagedFields().
		WithTypeConverters(tc, managedfields.NewDeducedTypeConverter())
}
