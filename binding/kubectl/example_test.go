package kubectl_test

import (
	"fmt"
	"os"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/kubectl"
)

// A Binding that is ready and one made a few seconds ago, with no status
// yet.
func ExampleGet() {
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	ready := akv1.Binding{
		ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "team-a-chat",
			CreationTimestamp: metav1.NewTime(now.Add(-4 * time.Minute))},
		Spec: akv1.BindingSpec{Chat: akv1.ChatRef{Channel: "C2"}},
		Status: akv1.BindingStatus{Conditions: []metav1.Condition{
			{Type: binding.TypeReady, Status: metav1.ConditionTrue, Reason: string(binding.ReasonOK)},
		}},
	}
	fresh := akv1.Binding{
		ObjectMeta: metav1.ObjectMeta{Namespace: "team-b", Name: "new",
			CreationTimestamp: metav1.NewTime(now.Add(-7 * time.Second))},
		Spec: akv1.BindingSpec{Chat: akv1.ChatRef{Channel: "C7"}},
	}
	fmt.Print(kubectl.Get([]akv1.Binding{fresh, ready}, now))
	// Output:
	// NAMESPACE   NAME          READY   REASON   CHANNEL   AGE
	// team-a      team-a-chat   True    OK       C2        4m
	// team-b      new                            C7        7s
}

// Write prints the same table as Get straight to a writer, a line at a
// time.
func ExampleWrite() {
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	b := akv1.Binding{
		ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "chat",
			CreationTimestamp: metav1.NewTime(now.Add(-2 * time.Hour))},
		Spec: akv1.BindingSpec{Chat: akv1.ChatRef{Channel: "C1"}},
	}
	if err := kubectl.Write(os.Stdout, []akv1.Binding{b}, now); err != nil {
		fmt.Println(err)
	}
	// Output:
	// NAMESPACE   NAME   READY   REASON   CHANNEL   AGE
	// team-a      chat                    C1        120m
}
