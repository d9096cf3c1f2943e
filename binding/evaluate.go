package binding

import "github.com/condengine/condengine/conditions"

// Evaluate computes, from one snapshot, the exact condition set of every
// Binding this broker answers for, whether each must be written, and the
// broker's next memory. It reads no clock, does no I/O and does not
// modify the snapshot. A snapshot whose Now is the zero time is refused
// with conditions.ErrZeroNow: nothing is stamped with the year 1.
func Evaluate(s Snapshot) (Result, error) {
	if err := conditions.CheckNow(s.Now); err != nil {
		return Result{}, err
	}
	return evaluate(&s, false), nil
}
