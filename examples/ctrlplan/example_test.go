package ctrlplan_test

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/examples/ctrlplan"
	"github.com/condengine/condengine/writeplan"
)

// Example writes a Binding's status with a plan through the fake client.
func Example() {
	ctx := context.Background()
	c := ctrlplan.NewFakeClientBuilder().Build()
	b := &akv1.Binding{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "support"}}
	if err := c.Create(ctx, b); err != nil {
		fmt.Println(err)
		return
	}
	ready := metav1.Condition{Type: "Ready", Status: "True", Reason: "OK", Message: "served", ObservedGeneration: 1,
		LastTransitionTime: metav1.Unix(1_700_000_000, 0)}
	o := &conditions.Outcome{Kind: akv1.KindBinding, Namespace: "team-a", Name: "support",
		Conditions: []metav1.Condition{ready}, Owned: []metav1.Condition{ready}, Write: true}
	plan, err := writeplan.For(b, o, akv1.BindingStatus{}, writeplan.Options{
		FieldManager: "agent-kourier",
		Kind:         writeplan.Kind{APIVersion: akv1.APIVersion, Kind: akv1.KindBinding},
	})
	if err == nil {
		err = ctrlplan.Carry(ctx, c, b, plan)
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	var got akv1.Binding
	_ = c.Get(ctx, client.ObjectKeyFromObject(b), &got)
	for _, x := range got.Status.Conditions {
		fmt.Println(x.Type, x.Status, x.Reason)
	}
	// Output:
	// Ready True OK
}
