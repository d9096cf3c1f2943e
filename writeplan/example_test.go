package writeplan_test

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/writeplan"
)

// Example plans the write after a Binding stopped being served: the
// engine dropped BackendReachable, which an older writer's update also
// owns, so an apply alone would leave it; the plan removes it first,
// guarded by the resourceVersion read, then applies ours.
func Example() {
	t := metav1.Unix(1_700_000_000, 0)
	read := &akv1.Binding{ObjectMeta: metav1.ObjectMeta{
		Namespace: "team-a", Name: "support", ResourceVersion: "41",
		ManagedFields: []metav1.ManagedFieldsEntry{{
			Manager: "agent-kourier-v0", Operation: metav1.ManagedFieldsOperationUpdate, Subresource: "status",
			FieldsV1: metav1.NewFieldsV1(`{"f:status":{"f:conditions":{"k:{\"type\":\"BackendReachable\"}":{".":{}}}}}`),
		}},
	}}
	read.Status.Conditions = []metav1.Condition{
		{Type: "Ready", Status: "True", Reason: "Bound", Message: "bound", LastTransitionTime: t},
		{Type: "BackendReachable", Status: "True", Reason: "OK", Message: "reachable", LastTransitionTime: t},
	}
	ready := metav1.Condition{Type: "Ready", Status: "False", Reason: "NotServed", Message: "not served", LastTransitionTime: t}
	o := &conditions.Outcome{Kind: "Binding", Namespace: "team-a", Name: "support",
		Conditions: []metav1.Condition{ready}, Owned: []metav1.Condition{ready}, Write: true}

	plan, err := writeplan.For(read, o, akv1.BindingStatus{}, writeplan.Options{
		FieldManager: "agent-kourier",
		Kind:         writeplan.Kind{APIVersion: akv1.APIVersion, Kind: akv1.KindBinding},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range plan.Requests {
		fmt.Printf("%s %s %s\n%s\n", r.Step, r.Subresource, r.PatchType, r.Body)
	}
	for _, tr := range writeplan.Transitions(read.Status.Conditions, o.Conditions) {
		fmt.Printf("%s: %q -> %q (%s)\n", tr.Type, tr.From, tr.To, tr.Reason)
	}
	// Output:
	// RemoveConditions status application/json-patch+json
	// [{"op":"replace","path":"/metadata/resourceVersion","value":"41"},{"op":"test","path":"/status/conditions/1/type","value":"BackendReachable"},{"op":"remove","path":"/status/conditions/1"}]
	// ApplyStatus status application/apply-patch+yaml
	// {"apiVersion":"agentkourier.dev/v1alpha1","kind":"Binding","metadata":{"name":"support","namespace":"team-a"},"status":{"conditions":[{"type":"Ready","status":"False","lastTransitionTime":"2023-11-14T22:13:20Z","reason":"NotServed","message":"not served"}]}}
	// Ready: "True" -> "False" (NotServed)
	// BackendReachable: "True" -> "" (OK)
}
