package ctrlplan

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/record"

	"github.com/condengine/condengine/writeplan"
)

// RecordTransitions records one Event on obj per transition, in the
// order given: a Warning when a condition became False, a Normal Event
// otherwise. The Event's reason is the condition's reason; its note
// names the type, the status before and after ("none" for a condition
// that appeared or went) and the condition's message, if any, which the
// engine already keeps free of hosts, addresses and secrets. A nil recorder
// records nothing.
//
// Record after the plan was carried out, with the transitions between
// the conditions as read and as written (writeplan.Transitions), so an
// Event is never recorded for a write that failed.
func RecordTransitions(rec record.EventRecorder, obj runtime.Object, ts []writeplan.Transition) {
	if rec == nil {
		return
	}
	for _, t := range ts {
		kind := corev1.EventTypeNormal
		if t.To == metav1.ConditionFalse {
			kind = corev1.EventTypeWarning
		}
		note := fmt.Sprintf("%s: %s -> %s", t.Type, statusOrNone(t.From), statusOrNone(t.To))
		if t.Message != "" {
			note += ": " + t.Message
		}
		rec.Event(obj, kind, t.Reason, note)
	}
}

func statusOrNone(s metav1.ConditionStatus) string {
	if s == "" {
		return "none"
	}
	return string(s)
}
