package subscription

import (
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
)

// naiveCovered is the definition, walked the slow way: some Subscription
// stamped with root, active, bound to required, that is neither node i
// nor below it (its parent chain does not reach i).
func naiveCovered(e *evaluator, i int32, root string, required finopsv1.Reference) bool {
	for j := range e.nodes {
		s := e.nodes[j].sub
		if !s.IsActive() || s.Status.CompatibilityRoot != root || s.Spec.OfferingRef != required {
			continue
		}
		below := false
		for k, steps := int32(j), 0; k >= 0 && steps <= len(e.nodes); k, steps = e.nodes[k].parent, steps+1 {
			if k == i {
				below = true
				break
			}
		}
		if !below {
			return true
		}
	}
	return false
}

// onLoop reports whether node i's own parent chain comes back to it.
func onLoop(e *evaluator, i int32) bool {
	for k, steps := e.nodes[i].parent, 0; k >= 0 && steps <= len(e.nodes); k, steps = e.nodes[k].parent, steps+1 {
		if k == i {
			return true
		}
	}
	return false
}

func TestCoverage_MatchesNaiveWalk(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 40).Draw(t, "n")
		roots := []string{"r0", "r1", "r2"}
		offers := []finopsv1.Reference{{Namespace: "shop", Name: "a"}, {Namespace: "shop", Name: "b"}, {Namespace: "shop", Name: "c"}}
		subs := make([]finopsv1.Subscription, n)
		at := metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
		for i := range subs {
			s := &subs[i]
			s.Namespace, s.Name, s.UID = "ns", fmt.Sprintf("s%d", i), types.UID(fmt.Sprintf("u%d", i))
			s.Spec.OfferingRef = rapid.SampledFrom(offers).Draw(t, "offering")
			switch p := rapid.IntRange(-2, n-1).Draw(t, "parent"); {
			case p == -1:
				s.Spec.Parent = &finopsv1.Parent{SubscriptionRef: finopsv1.Reference{Namespace: "ns", Name: "ghost"}}
			case p >= 0:
				s.Spec.Parent = &finopsv1.Parent{SubscriptionRef: finopsv1.Reference{Namespace: "ns", Name: fmt.Sprintf("s%d", p)}}
			}
			if rapid.Bool().Draw(t, "stamped") {
				s.Status.CompatibilityRoot = rapid.SampledFrom(roots).Draw(t, "root")
			}
			if rapid.Bool().Draw(t, "active") {
				s.Status.ActivatedAt = &at
				if rapid.IntRange(0, 4).Draw(t, "deactivated") == 0 {
					s.Status.DeactivatedAt = &at
				}
			}
		}
		e := newEvaluator(Snapshot{Now: at.Time, Subscriptions: subs})
		e.resolveRoots()
		e.numberTree()
		e.indexProviders()
		for i := range e.nodes {
			if onLoop(e, int32(i)) {
				continue // no interval describes a cycle; see numberTree
			}
			for _, r := range roots {
				for _, o := range offers {
					want := naiveCovered(e, int32(i), r, o)
					if got := e.covered(int32(i), r, o); got != want {
						t.Fatalf("%s root %s offering %s: covered=%v, the walk says %v", e.nodes[i].sub.Name, r, o, got, want)
					}
				}
			}
		}
	})
}

// TestRoots_DeepChainAndLoops checks the iterative root walk on a chain
// far deeper than any real family, plus a loop.
func TestRoots_DeepChainAndLoops(t *testing.T) {
	const depth = 30_000
	subs := make([]finopsv1.Subscription, 0, depth+3)
	for i := 0; i < depth; i++ {
		s := finopsv1.Subscription{}
		s.Namespace, s.Name, s.UID = "ns", fmt.Sprintf("d%06d", i), types.UID(fmt.Sprintf("u%d", i))
		if i > 0 {
			s.Spec.Parent = &finopsv1.Parent{SubscriptionRef: finopsv1.Reference{Namespace: "ns", Name: fmt.Sprintf("d%06d", i-1)}}
		}
		subs = append(subs, s)
	}
	for _, p := range [][2]string{{"x", "y"}, {"y", "z"}, {"z", "x"}} {
		s := finopsv1.Subscription{}
		s.Namespace, s.Name, s.UID = "ns", p[0], types.UID("u-"+p[0])
		s.Spec.Parent = &finopsv1.Parent{SubscriptionRef: finopsv1.Reference{Namespace: "ns", Name: p[1]}}
		subs = append(subs, s)
	}
	e := newEvaluator(Snapshot{Subscriptions: subs})
	e.resolveRoots()
	e.numberTree()
	for i := range e.nodes {
		n := &e.nodes[i]
		switch n.sub.Name[0] {
		case 'd':
			if n.rootState != rootKnown || n.root != "u0" {
				t.Fatalf("%s: root %q state %d, want u0", n.sub.Name, n.root, n.rootState)
			}
		default:
			if n.rootState != rootLoop {
				t.Fatalf("%s: state %d, want a loop", n.sub.Name, n.rootState)
			}
			if n.in < 0 || n.out <= n.in {
				t.Fatalf("%s: loop member not numbered: [%d,%d)", n.sub.Name, n.in, n.out)
			}
		}
	}
	if top := e.nodes[e.byKey[finopsv1.Reference{Namespace: "ns", Name: "d000000"}]]; top.out-top.in != depth {
		t.Fatalf("the chain's top spans %d entries, want %d", top.out-top.in, depth)
	}
}
