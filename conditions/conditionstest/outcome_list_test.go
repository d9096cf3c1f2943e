package conditionstest

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/condengine/condengine/conditions"
)

type recordingTB struct{ errs []string }

func (r *recordingTB) Helper() {}
func (r *recordingTB) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

type kindOutcome struct {
	conditions.Outcome
	Extra int
}

func TestCheckOutcomes_TakesTheListAsAResultHoldsIt(t *testing.T) {
	good := conditions.Outcome{Kind: "Widget", Namespace: "a", Name: "w", Skip: conditions.SkipUnchanged}
	bad := conditions.Outcome{Kind: "Widget", Namespace: "b", Name: "w", Write: true, Skip: conditions.SkipUnchanged}

	var r recordingTB
	CheckOutcomes(&r, nil, []conditions.Outcome{good})
	CheckOutcomes(&r, nil, []kindOutcome{{Outcome: good}})
	assert.Empty(t, r.errs)

	CheckOutcomes(&r, nil, []kindOutcome{{Outcome: good}, {Outcome: bad}})
	assert.Len(t, r.errs, 1, "the embedded outcome is the one checked")

	r.errs = nil
	CheckOutcomes(&r, nil, []int{1})
	assert.Len(t, r.errs, 1, "a list without outcomes is an error, not a panic")
}
