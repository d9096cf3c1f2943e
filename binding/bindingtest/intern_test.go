package bindingtest

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestInterner_SharesEqualConditionLists(t *testing.T) {
	at := metav1.NewTime(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	list := func() []metav1.Condition {
		l := make([]metav1.Condition, 2, 4)
		l[0] = metav1.Condition{Type: "Accepted", Status: "True", Reason: "OK", ObservedGeneration: 1, LastTransitionTime: at}
		l[1] = metav1.Condition{Type: "Ready", Status: "Unknown", Reason: "Pending", Message: "m", ObservedGeneration: 1}
		return l
	}
	in := newInterner()
	first := in.conditions(list())
	if cap(first) != len(first) {
		t.Fatalf("kept list has room to grow (cap %d, len %d): an append would write into a shared list", cap(first), len(first))
	}
	second := in.conditions(list())
	if &second[0] != &first[0] {
		t.Fatal("an equal list was not shared")
	}
	// Every field, and the time's location and nanoseconds, tell lists
	// apart.
	for name, change := range map[string]func(c *metav1.Condition){
		"type":        func(c *metav1.Condition) { c.Type = "Other" },
		"status":      func(c *metav1.Condition) { c.Status = "False" },
		"reason":      func(c *metav1.Condition) { c.Reason = "Other" },
		"message":     func(c *metav1.Condition) { c.Message = "other" },
		"generation":  func(c *metav1.Condition) { c.ObservedGeneration = 2 },
		"instant":     func(c *metav1.Condition) { c.LastTransitionTime = metav1.NewTime(at.Add(time.Second)) },
		"nanoseconds": func(c *metav1.Condition) { c.LastTransitionTime = metav1.NewTime(at.Add(time.Nanosecond)) },
		"location":    func(c *metav1.Condition) { c.LastTransitionTime = metav1.NewTime(at.In(time.FixedZone("X", 0))) },
		// Fields split differently must not make one key.
		"boundary": func(c *metav1.Condition) { c.Type, c.Status = "AcceptedTrue", "" },
	} {
		l := list()
		change(&l[0])
		if got := in.conditions(l); &got[0] == &first[0] {
			t.Errorf("%s: a different list was given the shared one", name)
		}
	}
	if got := in.conditions(nil); got != nil {
		t.Fatalf("no conditions gave %v", got)
	}
}
