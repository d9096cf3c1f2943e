package offering_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/offering"
	ot "github.com/condengine/condengine/offering/offeringtest"
)

// readyOf returns the Ready condition the evaluation gives the named
// Offering.
func readyOf(t testing.TB, offs []finopsv1.Offering, r offering.Result, name string) (reason, message string) {
	t.Helper()
	outs := inInputOrder(offs, r)
	for i := range offs {
		if offs[i].Namespace+"/"+offs[i].Name == name {
			c := conditions.Find(outs[i].Status.Conditions, offering.TypeReady)
			require.NotNil(t, c, name)
			return c.Reason, c.Message
		}
	}
	t.Fatalf("no offering %s", name)
	return "", ""
}

func eval(offs ...finopsv1.Offering) offering.Result {
	return evaluate(offering.Snapshot{Now: now, Offerings: offs})
}

func TestCircularDependency_SelfRequirement(t *testing.T) {
	offs := []finopsv1.Offering{ot.New("shop", "base", ot.Requires(ot.Ref("shop", "base")))}
	reason, msg := readyOf(t, offs, eval(offs...), "shop/base")
	assert.Equal(t, string(offering.ReasonCircularDependencyDetected), reason)
	assert.Equal(t, "requirement loop: shop/base -> shop/base", msg)
}

func TestCircularDependency_PathInRequirementOrderEndsAtReenteredOffering(t *testing.T) {
	offs := []finopsv1.Offering{
		// u's first requirement reaches no loop and is skipped; the walk
		// descends into x, then y, and re-enters x.
		ot.New("shop", "u", ot.Requires(ot.Ref("shop", "leaf"), ot.Ref("shop", "x"))),
		ot.New("shop", "leaf", ot.Ready()),
		ot.New("shop", "x", ot.Requires(ot.Ref("shop", "y"))),
		ot.New("shop", "y", ot.Requires(ot.Ref("shop", "gone"), ot.Ref("shop", "x"))),
	}
	r := eval(offs...)
	for name, want := range map[string]string{
		"shop/u": "requirement loop: shop/u -> shop/x -> shop/y -> shop/x",
		"shop/x": "requirement loop: shop/x -> shop/y -> shop/x",
		"shop/y": "requirement loop: shop/y -> shop/x -> shop/y",
	} {
		reason, msg := readyOf(t, offs, r, name)
		assert.Equal(t, string(offering.ReasonCircularDependencyDetected), reason, name)
		assert.Equal(t, want, msg, name)
	}
	reason, _ := readyOf(t, offs, r, "shop/leaf")
	assert.Equal(t, string(offering.ReasonValidationSucceeded), reason)
}

func TestCircularDependency_LoopBeatsEarlierMissingEntry(t *testing.T) {
	// The loop walk runs before the per-entry checks, so a missing first
	// entry does not hide the loop behind it.
	offs := []finopsv1.Offering{
		ot.New("shop", "a", ot.Requires(ot.Ref("shop", "missing"), ot.Ref("shop", "a"))),
	}
	reason, _ := readyOf(t, offs, eval(offs...), "shop/a")
	assert.Equal(t, string(offering.ReasonCircularDependencyDetected), reason)
}

func TestCircularDependency_OtherNamespaceNotNamedUnlessWrittenHere(t *testing.T) {
	offs := []finopsv1.Offering{
		ot.New("team-a", "app", ot.Requires(ot.Ref("team-b", "db"))),
		ot.New("team-b", "db", ot.Requires(ot.Ref("team-c", "secret-tier"))),
		ot.New("team-c", "secret-tier", ot.Requires(ot.Ref("team-b", "db"))),
	}
	_, msg := readyOf(t, offs, eval(offs...), "team-a/app")
	// team-b/db is written in team-a's own spec; team-c's name is not.
	assert.Equal(t, "requirement loop: team-a/app -> team-b/db -> (an offering in another namespace) -> team-b/db", msg)
	assert.NotContains(t, msg, "secret-tier")
}

func TestCircularDependency_LongLoopMessageShortened(t *testing.T) {
	const n = 500
	offs := make([]finopsv1.Offering, n)
	for i := range offs {
		offs[i] = ot.New("shop", fmt.Sprintf("o%d", i), ot.Requires(ot.Ref("shop", fmt.Sprintf("o%d", (i+1)%n))))
	}
	_, msg := readyOf(t, offs, eval(offs...), "shop/o0")
	assert.Equal(t, "requirement loop: shop/o0 -> shop/o1 -> shop/o2 -> shop/o3 -> shop/o4 -> shop/o5 -> shop/o6 -> shop/o7 -> shop/o8 -> shop/o9 -> … (490 more) … -> shop/o0", msg)
}

func TestCircularDependency_LongChainIntoLoop(t *testing.T) {
	// The graph passes themselves are checked at 100k nodes in
	// graph_internal_test.go; this runs the whole evaluation on a chain
	// long enough to matter while keeping -race fast.
	const n = 20_000
	offs := make([]finopsv1.Offering, n)
	for i := range offs {
		next := (i + 1) % n
		if i == n-1 {
			next = n - 3 // a loop of three at the far end
		}
		offs[i] = ot.New("shop", fmt.Sprintf("o%d", i), ot.Requires(ot.Ref("shop", fmt.Sprintf("o%d", next))))
	}
	r := eval(offs...)
	reason, msg := readyOf(t, offs, r, "shop/o0")
	assert.Equal(t, string(offering.ReasonCircularDependencyDetected), reason)
	assert.True(t, strings.HasSuffix(msg, "(19990 more) … -> shop/o19997"), msg)
}
