package binding

// Evaluate computes, from one snapshot, the exact condition set of every
// Binding this broker answers for, whether each must be written, and the
// broker's next memory. It reads no clock, does no I/O and does not
// modify the snapshot.
func Evaluate(s Snapshot) Result {
	return evaluate(&s, false)
}
