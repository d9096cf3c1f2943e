package check_test

import (
	"fmt"
	"time"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/conditions/check"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func Example() {
	vocab := conditions.MustVocabulary("example.dev/v1", "Widget", []conditions.Type{
		{Name: "Ready", Required: true, Reasons: []conditions.Reason{
			{Status: metav1.ConditionTrue, Reason: "OK"},
			{Status: metav1.ConditionFalse, Reason: "Broken"},
		}},
	})
	at := metav1.NewTime(time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC))
	findings := check.Run(vocab, check.Object{
		Generation: 2,
		Conditions: []metav1.Condition{
			{Type: "Ready", Status: metav1.ConditionFalse, Reason: "Borked", ObservedGeneration: 3, LastTransitionTime: at},
		},
	})
	for _, f := range findings {
		fmt.Println(f)
	}
	// Output:
	// CE003 error status.conditions[0].reason: Unsupported value: "Borked": supported values: "Broken"
	// CE004 error status.conditions[0].observedGeneration: Invalid value: 3: must not be above metadata.generation (2)
}
