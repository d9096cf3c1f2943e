package v1alpha1_test

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/condengine/condengine/api/agentkourier/v1alpha1"
)

// A host registers the group in its scheme; every kind and its List is
// then known by its GroupVersionKind, and every object deep-copies.
func Example() {
	scheme := runtime.NewScheme()
	if err := v1alpha1.AddToScheme(scheme); err != nil {
		fmt.Println(err)
		return
	}
	b := &v1alpha1.Binding{
		ObjectMeta: metav1.ObjectMeta{Name: "support", Namespace: "team-a"},
		Spec: v1alpha1.BindingSpec{
			Agent: v1alpha1.AgentRef{BackendRef: v1alpha1.Ref{Name: "helper"}},
			Chat:  v1alpha1.ChatRef{ConnectionRef: v1alpha1.Ref{Name: "slack"}, Channel: "C042"},
		},
	}
	gvks, _, err := scheme.ObjectKinds(b)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(gvks[0])
	copied := b.DeepCopyObject().(*v1alpha1.Binding)
	copied.Spec.Chat.Channel = "C043"
	fmt.Println(b.Spec.Chat.Channel, copied.Spec.Chat.Channel)
	for _, kind := range []string{v1alpha1.KindAgentBackend, v1alpha1.KindChatConnection, v1alpha1.KindBinding + "List"} {
		fmt.Println(kind, scheme.Recognizes(v1alpha1.GroupVersion.WithKind(kind)))
	}
	// Output:
	// agentkourier.dev/v1alpha1, Kind=Binding
	// C042 C043
	// AgentBackend true
	// ChatConnection true
	// BindingList true
}
