package check

import (
	"fmt"

	"github.com/condengine/condengine/conditions"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Transition checks the step from one written condition list to the next
// for the rules that need both:
//
//	CT001 A terminal condition keeps its status and reason.
//	CT002 lastTransitionTime moves only when status moves.
//
// observedGeneration may go down between two writes (a Binding's Ready
// after a refused edit is fixed), so no rule forbids it.
//
// before and after are the lists as written on the same object (same UID).
func Transition(v *conditions.Vocabulary, before, after []metav1.Condition) []Finding {
	var out []Finding
	add := func(id string, i int, child, detail string) {
		out = append(out, Finding{Rule: id, Severity: Error, Field: condPath.Index(i).Child(child).String(), Detail: detail})
	}
	for i, a := range after {
		b := conditions.Find(before, a.Type)
		if b == nil || !v.Has(a.Type) {
			continue
		}
		if v.IsTerminal(*b) && (a.Status != b.Status || a.Reason != b.Reason) {
			add("CT001", i, "reason", fmt.Sprintf("%s left the terminal %s %s for %s %s", a.Type, b.Status, b.Reason, a.Status, a.Reason))
		}
		if a.Status == b.Status && !a.LastTransitionTime.Equal(&b.LastTransitionTime) {
			add("CT002", i, "lastTransitionTime", fmt.Sprintf("%s moved without a status change", a.Type))
		}
		if a.Status != b.Status && a.LastTransitionTime.Equal(&b.LastTransitionTime) {
			add("CT002", i, "lastTransitionTime", fmt.Sprintf("%s changed status but kept its time", a.Type))
		}
	}
	for _, b := range before {
		if v.IsTerminal(b) && conditions.Find(after, b.Type) == nil {
			out = append(out, Finding{Rule: "CT001", Severity: Error, Field: condPath.String(),
				Detail: fmt.Sprintf("terminal %s %s %s was removed", b.Type, b.Status, b.Reason)})
		}
	}
	return out
}
