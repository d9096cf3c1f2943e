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

// evaluator is one evaluation's working state. Its stages run in data
// order, one file each:
//
//  1. index.go, probeindex.go: the snapshot grouped for lookups;
//  2. speccheck.go: the broker's checks on every spec;
//  3. claims.go: references resolved and the channels claimed;
//  4. probe.go: probe results classified;
//  5. accepted.go, decide.go: each Binding's conditions and Ready;
//  6. result.go: the outcomes and the memory, in their sorted order.
type evaluator struct {
	s  *Snapshot
	ix *index
	// st is the working state of each Binding, by position.
	st []bstate
	// holders maps each claimed channel to the position of its holder.
	holders map[chanKey]int
	probes  *probeIndex
}

func evaluate(s *Snapshot, explain bool) Result {
	ix := buildIndex(s)
	ix.explain = explain
	e := &evaluator{s: s, ix: ix, st: make([]bstate, len(s.Bindings)), holders: make(map[chanKey]int, len(s.Bindings))}
	e.resolve()
	e.claimChannels()
	e.probes = indexProbes(s)
	return e.result()
}
