package pricebook_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/conditions/conditionstest"
	"github.com/condengine/condengine/pricebook"
	pb "github.com/condengine/condengine/pricebook/pricebooktest"
)

var now = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

// evaluate is Evaluate at a set now; a refusal fails the test loudly.
func evaluate(books []finopsv1.PriceBook, previous map[string]string, now time.Time) pricebook.Result {
	r, err := pricebook.Evaluate(books, previous, now)
	if err != nil {
		panic(err)
	}
	return r
}

// outcomeOf finds the outcome of the book with b's identity; nil when
// there is none.
func outcomeOf(r pricebook.Result, b *finopsv1.PriceBook) *pricebook.Outcome {
	for i := range r.Books {
		if o := &r.Books[i]; o.Namespace == b.Namespace && o.Name == b.Name && o.UID == b.UID {
			return o
		}
	}
	return nil
}

// named finds the outcome of the book of that name.
func named(t *testing.T, r pricebook.Result, name string) pricebook.Outcome {
	t.Helper()
	for _, o := range r.Books {
		if o.Name == name {
			return o
		}
	}
	t.Fatalf("no outcome for %s", name)
	return pricebook.Outcome{}
}

// apply writes the statuses due back, as the host would.
func apply(books []finopsv1.PriceBook, r pricebook.Result) []finopsv1.PriceBook {
	out := make([]finopsv1.PriceBook, len(books))
	copy(out, books)
	for i := range out {
		if o := outcomeOf(r, &out[i]); o != nil && o.Write {
			out[i].Status = o.Status
		}
	}
	return out
}

func TestReady_ParseFailedNamesFieldAndValue(t *testing.T) {
	books := []finopsv1.PriceBook{pb.New("a", "big", pb.Rate(pricebook.PVGbHour, "123456789012345678901234567890"))}
	r := evaluate(books, nil, now)
	c := conditions.Find(r.Books[0].Status.Conditions, pricebook.TypeReady)
	require.NotNil(t, c)
	assert.Equal(t, metav1.ConditionFalse, c.Status)
	assert.Equal(t, pricebook.ReasonPricebookParseFailed, c.Reason)
	assert.Equal(t, `rate "pvGbHour" ("123456789012345678901234567890"): value is too large for int64 micro-units`, c.Message)
	assert.Equal(t, metav1.ConditionFalse, r.Books[0].Status.Ready)
}

func TestReady_PercentBookTriviallyReady(t *testing.T) {
	books := []finopsv1.PriceBook{pb.New("a", "pct", pb.Percent(), pb.Rate(pricebook.CPUHour, "-5"))}
	r := evaluate(books, nil, now)
	assert.Equal(t, metav1.ConditionTrue, r.Books[0].Status.Ready)
	// It wins, is ready, and is rendered as written.
	assert.Equal(t, "-5", r.Document[pricebook.KeyCPU])
}

func TestReady_MissingRatesBlockIsAllZero(t *testing.T) {
	books := []finopsv1.PriceBook{pb.New("a", "empty", pb.NoRates())}
	r := evaluate(books, nil, now)
	assert.Equal(t, metav1.ConditionTrue, r.Books[0].Status.Ready)
	for _, k := range []string{pricebook.KeyCPU, pricebook.KeyGPU, pricebook.KeyRAM, pricebook.KeySpotCPU, pricebook.KeySpotRAM,
		pricebook.KeyStorage, pricebook.KeyZoneNetworkEgress, pricebook.KeyRegionNetworkEgress, pricebook.KeyInternetNetworkEgress} {
		assert.Equal(t, "0", r.Document[k], k)
	}
	assert.Equal(t, "custom", r.Document[pricebook.KeyProvider])
	assert.Equal(t, "Pricebook from: empty", r.Document[pricebook.KeyDescription])
}

func TestActive_ActivatedOnlyOnTransition(t *testing.T) {
	books := []finopsv1.PriceBook{pb.New("a", "only")}
	r := evaluate(books, nil, now)
	c := conditions.Find(r.Books[0].Status.Conditions, pricebook.TypeActive)
	require.NotNil(t, c)
	assert.Equal(t, pricebook.ReasonActivated, c.Reason)
	assert.True(t, r.Books[0].Status.Active)

	// Next generation, later: the Active condition stays exactly as it
	// was, its observedGeneration included.
	books = apply(books, r)
	books[0].Generation = 2
	r2 := evaluate(books, r.Document, now.Add(time.Hour))
	c2 := conditions.Find(r2.Books[0].Status.Conditions, pricebook.TypeActive)
	require.NotNil(t, c2)
	assert.Equal(t, *c, *c2)
	assert.Equal(t, int64(1), c2.ObservedGeneration)
	ready := conditions.Find(r2.Books[0].Status.Conditions, pricebook.TypeReady)
	assert.Equal(t, int64(2), ready.ObservedGeneration)
}

func TestActive_NeverActiveBookHasNoActiveCondition(t *testing.T) {
	books := []finopsv1.PriceBook{pb.New("a", "winner", pb.Annotated("true")), pb.New("a", "loser")}
	r := evaluate(books, nil, now)
	loser := named(t, r, "loser")
	assert.Nil(t, conditions.Find(loser.Status.Conditions, pricebook.TypeActive))
	assert.False(t, loser.Status.Active)
	assert.Nil(t, loser.Status.ActivePricing)
}

func TestActive_DemotedClearsActivePricing(t *testing.T) {
	books := []finopsv1.PriceBook{pb.New("a", "old", pb.Created(pb.Epoch()))}
	books = apply(books, evaluate(books, nil, now))
	require.NotNil(t, books[0].Status.ActivePricing)
	books = append(books, pb.New("a", "pinned", pb.Created(pb.Epoch()), pb.Annotated("true")))
	r := evaluate(books, nil, now.Add(time.Minute))
	c := conditions.Find(r.Books[0].Status.Conditions, pricebook.TypeActive)
	require.NotNil(t, c)
	assert.Equal(t, metav1.ConditionFalse, c.Status)
	assert.Equal(t, pricebook.ReasonDemoted, c.Reason)
	assert.Nil(t, r.Books[0].Status.ActivePricing)
	assert.False(t, r.Books[0].Status.Active)
	assert.Equal(t, 1, r.Elected, "pinned, second of the sorted outcomes")
	assert.Equal(t, "pinned", r.Books[r.Elected].Name)
}

func TestActivePricing_WinnerNotReady_NothingPushed(t *testing.T) {
	books := []finopsv1.PriceBook{pb.New("a", "broken", pb.Rate(pricebook.GPUHour, "0.1234567"))}
	prev := map[string]string{"CPU": "1"}
	r := evaluate(books, prev, now)
	assert.True(t, r.Books[0].Status.Active, "selection ignores readiness")
	assert.Nil(t, r.Books[0].Status.ActivePricing)
	assert.Nil(t, r.Document)
	assert.False(t, r.DocumentChanged)
}

func TestDocument_ChangedOnlyWhenDifferent(t *testing.T) {
	books := []finopsv1.PriceBook{pb.New("a", "std", pb.Rate(pricebook.CPUHour, "0.031"))}
	r := evaluate(books, nil, now)
	assert.True(t, r.DocumentChanged)
	r2 := evaluate(books, r.Document, now)
	assert.False(t, r2.DocumentChanged)
	// Same rates under another name: the description differs.
	other := []finopsv1.PriceBook{pb.New("a", "std2", pb.Rate(pricebook.CPUHour, "0.031"))}
	assert.True(t, evaluate(other, r.Document, now).DocumentChanged)
}

func TestEvaluate_StaleSnapshotWritesNothing(t *testing.T) {
	b := pb.New("a", "x")
	b.Status.Conditions = []metav1.Condition{{Type: pricebook.TypeReady, Status: metav1.ConditionTrue,
		Reason: pricebook.ReasonValidationSucceeded, ObservedGeneration: 5, LastTransitionTime: metav1.NewTime(now)}}
	r := evaluate([]finopsv1.PriceBook{b}, nil, now)
	assert.Equal(t, conditions.SkipStale, r.Books[0].Skip)
	assert.False(t, r.Books[0].Write)
	assert.Equal(t, b.Status.Conditions, r.Books[0].Conditions)
	assert.Nil(t, r.Document)
}

func TestEvaluate_UnchangedBookNoWrite(t *testing.T) {
	books := []finopsv1.PriceBook{pb.New("a", "x"), pb.New("a", "y", pb.Annotated("true"))}
	books = apply(books, evaluate(books, nil, now))
	r := evaluate(books, nil, now.Add(time.Hour))
	for i := range r.Books {
		assert.False(t, r.Books[i].Write, r.Books[i].Name)
		assert.Equal(t, conditions.SkipUnchanged, r.Books[i].Skip, r.Books[i].Name)
	}
}

func TestEvaluate_ZeroNowIsAnError(t *testing.T) {
	r, err := pricebook.Evaluate([]finopsv1.PriceBook{pb.New("a", "x")}, nil, time.Time{})
	require.ErrorIs(t, err, conditions.ErrZeroNow)
	assert.Empty(t, r.Books)
}

// Every field of the shared outcome, on each path a book can take.
func TestOutcome_EveryFieldFilled(t *testing.T) {
	audited := metav1.Condition{Type: "example.com/Audited", Status: metav1.ConditionTrue, Reason: "ByOtherTool",
		ObservedGeneration: 1, LastTransitionTime: metav1.NewTime(now.Add(-time.Hour))}
	fresh := pb.New("a", "fresh")
	fresh.Status.Conditions = []metav1.Condition{audited}
	settled := apply([]finopsv1.PriceBook{fresh}, evaluate([]finopsv1.PriceBook{fresh}, nil, now))[0]
	stale := fresh
	stale.Status.Conditions = []metav1.Condition{{Type: pricebook.TypeReady, Status: metav1.ConditionTrue,
		Reason: pricebook.ReasonValidationSucceeded, ObservedGeneration: 9, LastTransitionTime: metav1.NewTime(now)}, audited}
	for _, tc := range []struct {
		name  string
		book  finopsv1.PriceBook
		write bool
		skip  conditions.Skip
		owned []string
	}{
		{"first reconcile", fresh, true, conditions.SkipNone, []string{pricebook.TypeReady, pricebook.TypeActive}},
		{"settled", settled, false, conditions.SkipUnchanged, []string{pricebook.TypeReady, pricebook.TypeActive}},
		{"stale", stale, false, conditions.SkipStale, []string{pricebook.TypeReady}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := evaluate([]finopsv1.PriceBook{tc.book}, nil, now.Add(time.Hour))
			require.Len(t, r.Books, 1)
			o := r.Books[0]
			conditionstest.CheckOutcome(t, conditionstest.Expected{Kind: finopsv1.KindPriceBook, Object: tc.book.ObjectMeta,
				Write: tc.write, Skip: tc.skip, Finalizer: conditions.FinalizerKeep, Owned: tc.owned}, &o.Outcome)
			assert.Contains(t, o.Conditions, audited)
			assert.Equal(t, o.Conditions, o.Status.Conditions)
		})
	}
}

// A book that keeps the slot but stops parsing loses activePricing at
// once; Active stays as held (FinOps rule 30). A deleting incumbent is
// Demoted in the same reconcile that elects its successor (rule 29).
func TestEvaluate_ActivePricingOnlyOnTheActiveReadyBook(t *testing.T) {
	held := pb.New("a", "held", pb.Rate(pricebook.CPUHour, "0.02"))
	good := evaluate([]finopsv1.PriceBook{held}, nil, now).Books[0].Status
	require.NotNil(t, good.ActivePricing)
	require.Len(t, good.Conditions, 2)
	broken := pb.New("a", "held", pb.Rate(pricebook.CPUHour, "0.0000001"))
	broken.Status = good
	out := evaluate([]finopsv1.PriceBook{broken}, nil, now.Add(time.Hour)).Books[0]
	assert.True(t, out.Status.Active)
	assert.Equal(t, metav1.ConditionFalse, out.Status.Ready)
	assert.Nil(t, out.Status.ActivePricing)
	assert.True(t, out.Write)
	active := conditions.Find(out.Status.Conditions, pricebook.TypeActive)
	require.NotNil(t, active)
	assert.Equal(t, good.Conditions[1], *active)

	leaving := pb.New("a", "leaving", pb.Created(pb.Epoch().Add(time.Hour)), pb.Incumbent(), deleting)
	leaving.Status = good
	next := pb.New("a", "next")
	res := evaluate([]finopsv1.PriceBook{leaving, next}, nil, now)
	assert.Equal(t, "False "+pricebook.ReasonDemoted, reasonOf(outcomeOf(res, &leaving), pricebook.TypeActive))
	assert.Equal(t, "True "+pricebook.ReasonActivated, reasonOf(outcomeOf(res, &next), pricebook.TypeActive))
	assert.Nil(t, outcomeOf(res, &leaving).Status.ActivePricing)
}

func reasonOf(o *pricebook.Outcome, typ string) string {
	if c := conditions.Find(o.Status.Conditions, typ); c != nil {
		return string(c.Status) + " " + c.Reason
	}
	return ""
}
