package bindinghost_test

import (
	"context"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding/policy"
	"github.com/condengine/condengine/examples/bindinghost"
)

// A host without a manager: one pass over a cluster holding a Binding
// whose ChatConnection does not exist.
func ExampleHost_RunOnce() {
	scheme := runtime.NewScheme()
	gv := bindinghost.BindingGVK.GroupVersion()
	for _, kind := range []string{akv1.KindBinding, akv1.KindAgentBackend, akv1.KindChatConnection} {
		scheme.AddKnownTypeWithName(gv.WithKind(kind), &unstructured.Unstructured{})
		scheme.AddKnownTypeWithName(gv.WithKind(kind+"List"), &unstructured.UnstructuredList{})
	}
	metav1.AddToGroupVersion(scheme, gv)

	b := &unstructured.Unstructured{Object: map[string]any{
		"spec": map[string]any{
			"agent": map[string]any{"backendRef": map[string]any{"name": "echo"}},
			"chat":  map[string]any{"connectionRef": map[string]any{"name": "ghost"}, "channel": "C1"},
		},
	}}
	b.SetGroupVersionKind(bindinghost.BindingGVK)
	b.SetNamespace("team-a")
	b.SetName("orphan")
	b.SetUID("u-orphan")
	b.SetGeneration(1)
	c := fake.NewClientBuilder().WithScheme(scheme).WithObjects(b).WithStatusSubresource(b.DeepCopy()).Build()

	h, err := bindinghost.New(c, policy.DefaultLimits(), "")
	if err != nil {
		fmt.Println(err)
		return
	}
	report, err := h.RunOnce(context.Background(), time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("written:", report.Written)
	_ = c.Get(context.Background(), report.Written[0], b)
	conds, _, _ := unstructured.NestedSlice(b.Object, "status", "conditions")
	for _, x := range conds {
		m := x.(map[string]any)
		fmt.Println(m["type"], m["status"], m["reason"])
	}
	// Output:
	// written: [team-a/orphan]
	// Accepted False BackendNotFound
	// Ready False Accepted:BackendNotFound
}
