package hostcheck

import (
	"slices"

	"github.com/condengine/condengine/binding"
)

// pass is the engine's answer for one pass of a Binding host over its
// view. What a write may leave depends on two things the harness cannot
// see: the broker's memory of served generations (the one a host keeps
// that evaluated every view of its incarnation, as the harness tracks
// it; none, for a host that keeps none; or the memory of every state
// the store went through, for a host that saw them all), and whether
// its prober has listed the Bindings yet. Every combination is a legal
// answer; anything else written is not.
func (s *bindingWorld) pass(v PassView) (PassAnswer, error) {
	probes, _ := v.Observed.([]binding.ProbeResult)
	snap, err := bindingSnapshot(v.Objects, probes, v.Now, v.StartedAt)
	if err != nil {
		return PassAnswer{}, err
	}
	tracked, _ := v.Memory.(binding.ServedMemory)
	mems := []binding.ServedMemory{tracked}
	others := []binding.ServedMemory{{}, s.hist}
	for _, e := range v.Earlier {
		if m, ok := e.(binding.ServedMemory); ok {
			others = append(others, m)
		}
	}
	for _, m := range others {
		if !slices.ContainsFunc(mems, func(x binding.ServedMemory) bool { return sameServed(x, m) }) {
			mems = append(mems, m)
		}
	}
	out := PassAnswer{Writes: map[ObjectKey][]Written{}}
	if len(v.Judged) == 0 {
		mems = mems[:1]
	}
	for i, m := range mems {
		for _, listed := range []bool{true, false} {
			if len(v.Judged) == 0 && !listed {
				break
			}
			x := snap
			x.Served, x.Broker.ProberListed = m, listed
			res, err := binding.Evaluate(x)
			if err != nil {
				return PassAnswer{}, err
			}
			if i == 0 && listed {
				out.Memory = res.Memory
			}
			for _, o := range res.Bindings {
				addWritten(out.Writes, objectKey(bindingGVK.Kind, o.Namespace, o.Name), Written{Conditions: o.Owned})
			}
		}
	}
	return out, nil
}

func sameServed(a, b binding.ServedMemory) bool {
	return slices.EqualFunc(a.Objects, b.Objects, func(a, b binding.Served) bool {
		return binding.CompareServed(a, b) == 0 && a.Generation == b.Generation
	})
}
