package offering

import (
	"fmt"
	"testing"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
)

// chain builds n Offerings each requiring the next; the last requires
// back to loopTo, or nothing when loopTo is negative.
func chain(n, loopTo int) []finopsv1.Offering {
	offs := make([]finopsv1.Offering, n)
	for i := range offs {
		offs[i].Namespace, offs[i].Name = "shop", fmt.Sprintf("o%d", i)
		next := i + 1
		if i == n-1 {
			next = loopTo
		}
		if next >= 0 {
			offs[i].Spec.Compatibility = &finopsv1.Compatibility{RequiredOfferings: []finopsv1.Reference{{Namespace: "shop", Name: fmt.Sprintf("o%d", next)}}}
		}
	}
	return offs
}

func TestGraph_HundredThousandChainNoRecursion(t *testing.T) {
	const n = 100_000
	for _, tc := range []struct {
		name   string
		loopTo int
		reach  bool
	}{{"NoLoop", -1, false}, {"LoopAtFarEnd", n - 3, true}, {"OneBigLoop", 0, true}} {
		t.Run(tc.name, func(t *testing.T) {
			offs := chain(n, tc.loopTo)
			g := buildGraph(offs, index(offs))
			reach := g.loopReach()
			for i, r := range reach {
				if r != tc.reach {
					t.Fatalf("o%d: reach %v, want %v", i, r, tc.reach)
				}
			}
			if !tc.reach {
				return
			}
			l := g.loops(reach)
			if d := l.dist[0]; tc.loopTo == n-3 && d != n-3 || tc.loopTo == 0 && d != 0 {
				t.Fatalf("distance from o0 to its loop is %d", d)
			}
			if e := l.entry[0]; e != int32(tc.loopTo) {
				t.Fatalf("o0 enters its loop at o%d, want o%d", e, tc.loopTo)
			}
		})
	}
}
