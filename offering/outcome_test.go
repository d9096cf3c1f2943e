package offering_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/conditions/conditionstest"
	"github.com/condengine/condengine/offering"
	ot "github.com/condengine/condengine/offering/offeringtest"
)

// evaluate is Evaluate for snapshots whose Now is set; a refusal fails
// the test loudly.
func evaluate(s offering.Snapshot) offering.Result {
	r, err := offering.Evaluate(s)
	if err != nil {
		panic(err)
	}
	return r
}

// inInputOrder lays r's outcomes out beside offs, matched by identity,
// so a test reads each outcome next to its object. An Offering without
// an outcome gets the zero Outcome.
func inInputOrder(offs []finopsv1.Offering, r offering.Result) []offering.Outcome {
	// A map, not a scan of r per input: the long-chain tests hold 20,000
	// Offerings, and a quadratic lookup took most of the package's time
	// (more under -race).
	type id struct {
		ns, name string
		uid      types.UID
	}
	byID := make(map[id]offering.Outcome, len(r.Offerings))
	for _, o := range r.Offerings {
		byID[id{o.Namespace, o.Name, o.UID}] = o
	}
	out := make([]offering.Outcome, len(offs))
	for i := range offs {
		out[i] = byID[id{offs[i].Namespace, offs[i].Name, offs[i].UID}]
	}
	return out
}

func TestEvaluate_ZeroNowIsAnError(t *testing.T) {
	r, err := offering.Evaluate(offering.Snapshot{Offerings: []finopsv1.Offering{ot.New("shop", "x")}})
	require.ErrorIs(t, err, conditions.ErrZeroNow)
	assert.Empty(t, r.Offerings)
}

// Every field of the shared outcome, as each path fills it.
func TestOutcome_EveryFieldFilled(t *testing.T) {
	for _, tc := range []struct {
		name      string
		off       finopsv1.Offering
		write     bool
		skip      conditions.Skip
		finalizer conditions.FinalizerAction
		retry     bool
		owned     []string
	}{
		{name: "new, no finalizer", off: ot.New("shop", "fresh", ot.NoFinalizer()), write: true,
			finalizer: conditions.FinalizerAdd, owned: []string{offering.TypeReady, offering.TypePricingResolved}},
		{name: "missing requirement: retried", off: ot.New("shop", "needy", ot.Requires(ot.Ref("shop", "gone"))), write: true,
			retry: true, owned: []string{offering.TypeReady, offering.TypePricingResolved}},
		{name: "deleting, nothing holds it", off: ot.New("shop", "leaving", ot.Deleting()), write: true,
			finalizer: conditions.FinalizerRemove, owned: []string{offering.TypeDeleting}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.off.Status.Conditions = append(tc.off.Status.Conditions, audited())
			r := evaluate(offering.Snapshot{Now: now, Offerings: []finopsv1.Offering{tc.off}})
			require.Len(t, r.Offerings, 1)
			o := r.Offerings[0]
			want := conditionstest.Expected{Kind: finopsv1.KindOffering, Object: tc.off.ObjectMeta, Write: tc.write, Skip: tc.skip,
				Finalizer: tc.finalizer, Retry: tc.retry, Owned: tc.owned}
			if tc.retry {
				want.RetryAt = now.Add(conditions.RetryDelay) // after the snapshot's now, never at it
			}
			conditionstest.CheckOutcome(t, want, &o.Outcome)
			assert.Equal(t, audited(), o.Conditions[len(o.Conditions)-1], "the other writer's condition is kept in Conditions")
			assert.Equal(t, o.Conditions, o.Status.Conditions)
		})
	}
}

// audited is another controller's condition.
func audited() metav1.Condition {
	return metav1.Condition{Type: "example.com/Audited", Status: "True", Reason: "ByOtherTool", ObservedGeneration: 1,
		LastTransitionTime: metav1.NewTime(now.Add(-time.Hour))}
}

func jsonOf(t *rapid.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestProperty_OutcomesSortedAndOrderFree(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := drawSnapshot(t)
		for i := range s.Offerings {
			if rapid.Bool().Draw(t, "foreign") {
				s.Offerings[i].Status.Conditions = append(s.Offerings[i].Status.Conditions, audited())
			}
		}
		p := s
		p.Offerings = rapid.Permutation(s.Offerings).Draw(t, "perm")
		p.Dependents = rapid.Permutation(s.Dependents).Draw(t, "permDeps")
		a, b := evaluate(s), evaluate(p)
		if x, y := jsonOf(t, a), jsonOf(t, b); x != y {
			t.Fatalf("shuffled input, another result:\n%s\n%s", x, y)
		}
		conditionstest.CheckOutcomes(t, offering.Vocabulary, a.Offerings)
	})
}
