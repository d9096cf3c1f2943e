package writeplan

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
)

// Transition is one condition's change between the status as read and
// the status as written: what a host turns into a Kubernetes Event or a
// metric.
type Transition struct {
	// Type is the condition's type.
	Type string
	// From is its status as read, "" when the object did not hold it.
	From metav1.ConditionStatus
	// To is its status as written, "" when the write removes it.
	To metav1.ConditionStatus
	// Reason is the reason as written, or as read for a removal.
	Reason string
	// Message is the message beside Reason.
	Message string
}

// Transitions lists the conditions whose status differs between before
// (as read) and after (as written): appeared, changed status, or removed.
// A change of reason or message alone is not a transition. The order is
// after's, then the removed ones in before's order; a type repeated in
// either list counts at its first occurrence.
func Transitions(before, after []metav1.Condition) []Transition {
	var out []Transition
	seen := make(map[string]bool, len(after))
	for i := range after {
		a := &after[i]
		if seen[a.Type] {
			continue
		}
		seen[a.Type] = true
		var from metav1.ConditionStatus
		if b := conditions.Find(before, a.Type); b != nil {
			from = b.Status
		}
		if from != a.Status {
			out = append(out, Transition{Type: a.Type, From: from, To: a.Status, Reason: a.Reason, Message: a.Message})
		}
	}
	for i := range before {
		b := &before[i]
		if seen[b.Type] {
			continue
		}
		seen[b.Type] = true
		out = append(out, Transition{Type: b.Type, From: b.Status, Reason: b.Reason, Message: b.Message})
	}
	return out
}
