package conditionstest

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
)

// failures records what a check reports.
type failures struct{ msgs []string }

func (e *failures) Helper() {}
func (e *failures) Errorf(format string, args ...any) {
	e.msgs = append(e.msgs, fmt.Sprintf(format, args...))
}

// Each shared field, alone wrong, fails CheckOutcome once; the outcome as
// expected passes.
func TestCheckOutcome_EachFieldChecked(t *testing.T) {
	at := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	want := Expected{Kind: "Offering",
		Object: metav1.ObjectMeta{Namespace: "shop", Name: "x", UID: "u1", Generation: 2},
		Write:  true, Finalizer: conditions.FinalizerAdd, Retry: true, RetryAt: at, Owned: []string{"Ready"}}
	good := func() conditions.Outcome {
		return conditions.Outcome{Kind: "Offering", Namespace: "shop", Name: "x", UID: "u1", Generation: 2,
			Write: true, Finalizer: conditions.FinalizerAdd, Retry: true, RetryAt: at.In(time.FixedZone("x", 3600)),
			Owned: []metav1.Condition{{Type: "Ready"}}}
	}
	var e failures
	o := good()
	CheckOutcome(&e, want, &o)
	assert.Empty(t, e.msgs, "RetryAt compares as an instant")
	for name, spoil := range map[string]func(*conditions.Outcome){
		"kind":       func(o *conditions.Outcome) { o.Kind = "PriceBook" },
		"namespace":  func(o *conditions.Outcome) { o.Namespace = "other" },
		"name":       func(o *conditions.Outcome) { o.Name = "y" },
		"uid":        func(o *conditions.Outcome) { o.UID = "u2" },
		"generation": func(o *conditions.Outcome) { o.Generation = 1 },
		"write":      func(o *conditions.Outcome) { o.Write = false },
		"skip":       func(o *conditions.Outcome) { o.Skip = conditions.SkipStale },
		"finalizer":  func(o *conditions.Outcome) { o.Finalizer = conditions.FinalizerKeep },
		"retry":      func(o *conditions.Outcome) { o.Retry = false },
		"retryAt":    func(o *conditions.Outcome) { o.RetryAt = at.Add(time.Second) },
		"owned":      func(o *conditions.Outcome) { o.Owned = append(o.Owned, metav1.Condition{Type: "Active"}) },
	} {
		var e failures
		o := good()
		spoil(&o)
		CheckOutcome(&e, want, &o)
		assert.Len(t, e.msgs, 1, name)
	}
	var empty failures
	o = good()
	o.UID = ""
	w := want
	w.Object.UID = ""
	CheckOutcome(&empty, w, &o)
	assert.Len(t, empty.msgs, 1, "an empty uid fails even when expected")
}
