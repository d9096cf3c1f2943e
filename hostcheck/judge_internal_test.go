package hostcheck

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestWriteAnswer_ComparesByTypeAtWholeSeconds(t *testing.T) {
	at := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	c := func(typ string, s metav1.ConditionStatus, ltt time.Time) metav1.Condition {
		return metav1.Condition{Type: typ, Status: s, Reason: "R", ObservedGeneration: 1, LastTransitionTime: metav1.NewTime(ltt)}
	}
	want := Written{Conditions: []metav1.Condition{c("Accepted", "True", at.Add(400*time.Millisecond)), c("Ready", "True", at)}}
	for _, tc := range []struct {
		name string
		got  []metav1.Condition
		same bool
	}{
		{"the same, stored at whole seconds", []metav1.Condition{c("Accepted", "True", at), c("Ready", "True", at)}, true},
		{"in another order", []metav1.Condition{c("Ready", "True", at), c("Accepted", "True", at)}, true},
		{"a transition stamped a second late", []metav1.Condition{c("Accepted", "True", at), c("Ready", "True", at.Add(time.Second))}, false},
		{"another status", []metav1.Condition{c("Accepted", "True", at), c("Ready", "False", at)}, false},
		{"one missing", []metav1.Condition{c("Accepted", "True", at)}, false},
	} {
		if got := sameWritten(tc.got, nil, want); got != tc.same {
			t.Errorf("%s: sameWritten = %v, want %v", tc.name, got, tc.same)
		}
	}
}

func TestWriteAnswer_StatusFieldsAsJSONWritesThem(t *testing.T) {
	want := Written{Status: map[string]any{"activatedAt": "2026-11-30T10:00:00Z", "periods": float64(3)}}
	if !sameWritten(nil, map[string]any{"activatedAt": "2026-11-30T10:00:00Z", "periods": int64(3)}, want) {
		t.Error("an integer and a float of the same number differ")
	}
	if sameWritten(nil, map[string]any{"activatedAt": "2026-11-30T10:00:00Z"}, want) {
		t.Error("a field left out is the same status")
	}
	if !sameWritten(nil, nil, Written{Status: map[string]any{}}) {
		t.Error("no status fields and an empty map differ")
	}
}

func TestWriteAnswer_KeepsAFewEarlierMemories(t *testing.T) {
	var m passMemory
	for i := range 7 {
		m.keep(i)
		m.keep(i) // the same memory again is no new one
	}
	if m.mem != 6 || len(m.earlier) != keptMemories || m.earlier[0] != 5 || m.earlier[keptMemories-1] != 2 {
		t.Errorf("memory %v, earlier %v", m.mem, m.earlier)
	}
}
