package conditionstest_test

import (
	"fmt"
	"time"

	"github.com/condengine/condengine/conditions/conditionstest"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func ExampleDiff() {
	got := []metav1.Condition{{Type: "Ready", Status: "False", Reason: "BackendReachable:AgentNotFound",
		Message: "the agent card was not found; the operator's log has the cause", ObservedGeneration: 1,
		LastTransitionTime: metav1.NewTime(time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC))}}
	want := []metav1.Condition{{Type: "Ready", Status: "False", Reason: "BackendReachable:AgentNotFound",
		Message: "not found", ObservedGeneration: 1}}
	d := conditionstest.Diff(want, got, conditionstest.IgnoreLastTransitionTime(), conditionstest.LooseMessages())
	fmt.Printf("match: %v\n", d == "")
	// Output: match: true
}
