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
	return evaluate(&s, false, nil), nil
}

// EvaluateEach is Evaluate for a host that acts on each outcome as it is
// decided and keeps none: instead of collecting the outcomes in
// Result.Bindings, it hands each to each, in the order Result.Bindings
// would list them, with the position i of its Binding in s.Bindings. The
// Result it returns is Evaluate's without Bindings. A host holding a
// large snapshot then needs memory for the snapshot and one outcome, not
// for every outcome at once (on 100,000 Bindings the outcomes alone are
// 30 MB, the condition lists they bring 37 MB).
//
// each runs before EvaluateEach returns and must not modify the
// snapshot (a nil each drops the outcomes); an outcome shares its
// condition lists with the snapshot and with the outcome's Status, as
// Evaluate's do.
func EvaluateEach(s Snapshot, each func(i int, o Outcome)) (Result, error) {
	if err := conditions.CheckNow(s.Now); err != nil {
		return Result{}, err
	}
	if each == nil {
		each = func(int, Outcome) {}
	}
	return evaluate(&s, false, each), nil
}

// evaluator is one evaluation's working state. Its stages run in data
// order, one file each:
//
//  1. index.go, probeindex.go: the snapshot read at whole seconds and
//     grouped for lookups;
//  2. speccheck.go: the broker's checks on every spec;
//  3. claims.go: references resolved and the channels claimed;
//  4. probe.go: probe results classified;
//  5. accepted.go, decide.go: each Binding's conditions and Ready;
//  6. result.go: the outcomes and the memory, in their sorted order.
type evaluator struct {
	s  *Snapshot
	ix *index
	// st is the working state of each Binding, by position.
	st     []bstate
	probes *probeIndex
	// rec records each decision's rule and evidence (Explain); nil in
	// Evaluate.
	rec *recording
	// sc holds the evaluation's buffers (EvaluateInto keeps them).
	sc *scratch
}

// evaluate runs one evaluation; each, when set, receives the outcomes
// instead of Result.Bindings (EvaluateEach).
func evaluate(s *Snapshot, explain bool, each func(int, Outcome)) Result {
	return evaluateIn(s, explain, each, &scratch{})
}

// evaluateIn is evaluate with its working memory in sc: an empty scratch
// allocates everything, one kept from an earlier call (EvaluateInto)
// reuses what it holds.
func evaluateIn(s *Snapshot, explain bool, each func(int, Outcome), sc *scratch) Result {
	n := len(s.Bindings)
	sc.sized = n
	s.Bindings = wholeSeconds(s.Bindings)
	buildIndex(s, sc)
	sc.st = reuse(sc.st, n)
	sc.e = evaluator{s: s, ix: &sc.ix, st: sc.st, sc: sc}
	e := &sc.e
	if explain {
		e.rec = &recording{}
	}
	e.resolve()
	e.claimChannels()
	sc.probes.keepStarts(s, sc.carry != nil, indexProbes(s, &sc.probes) && sc.sameIDs)
	e.probes = &sc.probes
	return e.result(each)
}

// Explain is Evaluate with provenance: each Outcome also carries, in
// Provenance, the rule and the evidence behind each of its conditions,
// recorded while they are decided. Evaluate records nothing, so its path
// allocates nothing for it.
func Explain(s Snapshot) (Result, error) {
	if err := conditions.CheckNow(s.Now); err != nil {
		return Result{}, err
	}
	return evaluate(&s, true, nil), nil
}
