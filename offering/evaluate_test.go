package offering_test

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/offering"
	ot "github.com/condengine/condengine/offering/offeringtest"
	"github.com/condengine/condengine/pricebook"
	pb "github.com/condengine/condengine/pricebook/pricebooktest"
)

func activeBook(opts ...pb.Option) finopsv1.PriceBook {
	return pb.New("finops", "standard", append([]pb.Option{pb.Incumbent(),
		pb.Rate(pricebook.CPUHour, "0.031"), pb.Rate(pricebook.GPUHour, "1.8")}, opts...)...)
}

func evalWith(books []finopsv1.PriceBook, failures []offering.Failure, offs ...finopsv1.Offering) offering.Result {
	return evaluate(offering.Snapshot{Now: now, Offerings: offs, PriceBooks: books, Failures: failures})
}

func TestRequirements_CheckedInSpecOrder(t *testing.T) {
	base := []finopsv1.Offering{
		ot.New("shop", "ready", ot.Ready()),
		ot.New("shop", "unready", ot.NotReady()),
		ot.New("shop", "unknown"), // status.ready absent is not True
	}
	for _, tc := range []struct {
		name     string
		entries  []finopsv1.Reference
		failures []offering.Failure
		reason   string
		message  string
	}{
		{"AllReady", []finopsv1.Reference{ot.Ref("shop", "ready")}, nil, string(offering.ReasonValidationSucceeded), ""},
		{"NotFound_NamesEntry", []finopsv1.Reference{ot.Ref("shop", "ready"), ot.Ref("shop", "nope"), ot.Ref("shop", "unready")}, nil,
			string(offering.ReasonRequiredOfferingNotFound), "required offering shop/nope not found"},
		{"NotReady_BeforeLaterNotFound", []finopsv1.Reference{ot.Ref("shop", "unready"), ot.Ref("shop", "nope")}, nil,
			string(offering.ReasonRequiredOfferingNotReady), "required offering shop/unready is not ready"},
		{"ReadyAbsentCountsAsNotReady", []finopsv1.Reference{ot.Ref("shop", "unknown")}, nil,
			string(offering.ReasonRequiredOfferingNotReady), "required offering shop/unknown is not ready"},
		{"ReadFailure_ValidationError", []finopsv1.Reference{ot.Ref("shop", "ready")},
			[]offering.Failure{{Kind: finopsv1.KindOffering, Namespace: "shop", Name: "ready"}},
			string(offering.ReasonValidationError), "cannot read required offering shop/ready"},
		{"MissingNamespace_NeverDefaulted", []finopsv1.Reference{{Name: "ready"}}, nil,
			string(offering.ReasonRequiredOfferingNotFound), `required offering "ready" has no namespace (a reference is never defaulted)`},
		{"MissingName", []finopsv1.Reference{{Namespace: "shop"}}, nil,
			string(offering.ReasonRequiredOfferingNotFound), "requiredOfferings[0] has no name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			offs := append(append([]finopsv1.Offering{}, base...), ot.New("shop", "app", ot.Requires(tc.entries...)))
			r := evalWith(nil, tc.failures, offs...)
			reason, msg := readyOf(t, offs, r, "shop/app")
			assert.Equal(t, tc.reason, reason)
			assert.Equal(t, tc.message, msg)
		})
	}
}

func TestReadyAndPricingResolved_WrittenTogetherAndAgree(t *testing.T) {
	offs := []finopsv1.Offering{ot.New("shop", "app", ot.Requires(ot.Ref("shop", "nope")))}
	out := eval(offs...).Offerings[0]
	require.Len(t, out.Status.Conditions, 2)
	ready, pr := out.Status.Conditions[0], out.Status.Conditions[1]
	assert.Equal(t, offering.TypeReady, ready.Type)
	assert.Equal(t, offering.TypePricingResolved, pr.Type)
	assert.Equal(t, ready.Status, pr.Status)
	assert.Equal(t, ready.Reason, pr.Reason)
	assert.Equal(t, ready.Message, pr.Message)
	assert.Equal(t, metav1.ConditionFalse, out.Status.Ready)
	assert.True(t, out.Retry)
	assert.Nil(t, out.Status.ResolvedPricing)
}

func TestPricing_FeeOnlyNeedsNoBook(t *testing.T) {
	offs := []finopsv1.Offering{ot.New("shop", "fee", ot.Fee(40_000_000, "1h", finopsv1.AlignActivatedAt, 2))}
	out := eval(offs...).Offerings[0]
	assert.Equal(t, metav1.ConditionTrue, out.Status.Ready)
	pr := conditions.Find(out.Status.Conditions, offering.TypePricingResolved)
	assert.Equal(t, string(offering.ReasonPricingResolved), pr.Reason)
	require.NotNil(t, out.Status.ResolvedPricing)
	assert.Equal(t, []finopsv1.ResolvedMeter{}, out.Status.ResolvedPricing.Meters)
	assert.Equal(t, now, out.Status.ResolvedPricing.ResolvedAt.Time)
	assert.Equal(t, *offs[0].Spec.Pricing.SubscriptionFee, *out.Status.ResolvedPricing.SubscriptionFee)
	assert.False(t, out.Retry)
}

func TestPricing_NoActivePricebook(t *testing.T) {
	metered := ot.New("shop", "metered", ot.Meter(finopsv1.MeterCPUHour, nil))
	const want = "offering shop/metered: no active pricebook to resolve metered pricing"
	for _, tc := range []struct {
		name  string
		books []finopsv1.PriceBook
	}{
		{"NoBooks", nil},
		{"BookNotMarkedActive", []finopsv1.PriceBook{pb.New("finops", "idle")}},
		{"PercentBookHoldsTheSlot", []finopsv1.PriceBook{pb.New("finops", "pct", pb.Percent(), pb.Incumbent()), pb.New("finops", "cur")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			offs := []finopsv1.Offering{metered}
			reason, msg := readyOf(t, offs, evalWith(tc.books, nil, offs...), "shop/metered")
			assert.Equal(t, string(offering.ReasonNoActivePricebook), reason)
			assert.Equal(t, want, msg)
		})
	}
}

func TestPricing_MarginsAsWorkedExamples(t *testing.T) {
	offs := []finopsv1.Offering{ot.New("shop", "m",
		ot.Meter(finopsv1.MeterCPUHour, nil),
		ot.Meter(finopsv1.MeterCPUHour, ot.Absolute(1)), // repeated name: the first entry counts
		ot.Meter(finopsv1.MeterGPUHour, ot.Factor(1200)),
		ot.Meter(finopsv1.MeterSubscription, ot.Absolute(5)), // the fee prices it: 0, margins unused
		ot.Meter(finopsv1.MeterNetworkGb, ot.Factor(980)),
	)}
	out := evalWith([]finopsv1.PriceBook{activeBook(pb.Rate(pricebook.NetworkGiB, "0.000003"))}, nil, offs...).Offerings[0]
	require.NotNil(t, out.Status.ResolvedPricing)
	assert.Equal(t, []finopsv1.ResolvedMeter{
		{Name: finopsv1.MeterCPUHour, UnitPriceMicros: 31_000},
		{Name: finopsv1.MeterGPUHour, UnitPriceMicros: 2_160_000},
		{Name: finopsv1.MeterSubscription, UnitPriceMicros: 0},
		{Name: finopsv1.MeterNetworkGb, UnitPriceMicros: 2}, // 3 × 980 / 1000 = 2.94, rounded down
	}, out.Status.ResolvedPricing.Meters)
}

func TestApplyMargins(t *testing.T) {
	for _, tc := range []struct {
		name string
		rate int64
		m    *finopsv1.Margins
		want int64
		err  string
	}{
		{"None", 31_000, nil, 31_000, ""},
		{"Absolute", 31_000, ot.Absolute(200), 31_200, ""},
		{"Factor", 31_000, ot.Factor(1150), 35_650, ""},
		{"FactorDiscount", 31_000, ot.Factor(980), 30_380, ""},
		{"FactorLargeNoOverflowInProduct", math.MaxInt64, ot.Factor(1000), math.MaxInt64, ""},
		{"FactorOverflow", math.MaxInt64, ot.Factor(1001), 0, "too large"},
		{"FactorHugeFactor", math.MaxInt64, ot.Factor(math.MaxInt64), 0, "too large"},
		{"AbsoluteOverflow", math.MaxInt64, ot.Absolute(1), 0, "too large"},
		{"Both", 1, &finopsv1.Margins{AbsoluteMicros: ot.Absolute(1).AbsoluteMicros, FactorMilli: ot.Factor(1).FactorMilli}, 0, "mutually exclusive"},
		{"NegativeFactor", 1, ot.Factor(-1), 0, "negative"},
		{"NegativeAbsolute", 1, ot.Absolute(-1), 0, "negative"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := offering.ApplyMargins(tc.rate, tc.m)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestPricing_ParseFailedNamesMeterAndValue(t *testing.T) {
	offs := []finopsv1.Offering{ot.New("shop", "m", ot.Meter(finopsv1.MeterGPUHour, nil))}
	books := []finopsv1.PriceBook{activeBook(pb.Rate(pricebook.GPUHour, "99999999999999"))}
	reason, msg := readyOf(t, offs, evalWith(books, nil, offs...), "shop/m")
	assert.Equal(t, string(offering.ReasonPricebookParseFailed), reason)
	assert.Equal(t, `meter "gpuHour": rate "gpuHour" ("99999999999999"): value is too large for int64 micro-units`, msg)
}

func TestPricing_OnlyTheMetersRatesMatter(t *testing.T) {
	offs := []finopsv1.Offering{ot.New("shop", "m", ot.Meter(finopsv1.MeterCPUHour, nil))}
	books := []finopsv1.PriceBook{activeBook(pb.Rate(pricebook.GPUHour, "-1"))}
	reason, _ := readyOf(t, offs, evalWith(books, nil, offs...), "shop/m")
	assert.Equal(t, string(offering.ReasonValidationSucceeded), reason)
}

func TestPricing_MarginOverflowIsParseFailed(t *testing.T) {
	offs := []finopsv1.Offering{ot.New("shop", "m", ot.Meter(finopsv1.MeterGPUHour, ot.Factor(math.MaxInt64)))}
	reason, msg := readyOf(t, offs, evalWith([]finopsv1.PriceBook{activeBook()}, nil, offs...), "shop/m")
	assert.Equal(t, string(offering.ReasonPricebookParseFailed), reason)
	assert.Contains(t, msg, `meter "gpuHour"`)
	assert.Contains(t, msg, "1800000")
}

func TestPricing_BookReadFailureIsValidationError(t *testing.T) {
	offs := []finopsv1.Offering{ot.New("shop", "m", ot.Meter(finopsv1.MeterCPUHour, nil))}
	reason, _ := readyOf(t, offs, evalWith([]finopsv1.PriceBook{activeBook()},
		[]offering.Failure{{Kind: finopsv1.KindPriceBook}}, offs...), "shop/m")
	assert.Equal(t, string(offering.ReasonValidationError), reason)
}

func TestPricing_ResolvedOnceKeptForever(t *testing.T) {
	earlier := finopsv1.ResolvedPricing{ResolvedAt: metav1.NewTime(now.Add(-48 * time.Hour)),
		Meters: []finopsv1.ResolvedMeter{{Name: finopsv1.MeterCPUHour, UnitPriceMicros: 1}}}
	offs := []finopsv1.Offering{ot.New("shop", "m", ot.Meter(finopsv1.MeterCPUHour, nil), ot.Resolved(earlier))}
	// No book at all now: pricing is not re-resolved, so it stays ready.
	out := eval(offs...).Offerings[0]
	assert.Equal(t, metav1.ConditionTrue, out.Status.Ready)
	assert.Equal(t, earlier, *out.Status.ResolvedPricing)
}

func TestEvaluate_AddsFinalizerOnLiveOffering(t *testing.T) {
	out := eval(ot.New("shop", "x", ot.NoFinalizer())).Offerings[0]
	assert.Equal(t, conditions.FinalizerAdd, out.Finalizer)
	assert.Equal(t, conditions.FinalizerKeep, eval(ot.New("shop", "x")).Offerings[0].Finalizer)
}

// A zero subscription fee period is refused with the terminal
// InvalidSubscriptionFee on Ready and PricingResolved, naming the field
// and the value as written; pricing published before is withdrawn, and
// no retry is asked for. A requirement that fails still decides first.
func TestCheck_ZeroFeePeriodIsInvalidSubscriptionFee(t *testing.T) {
	for _, c := range []struct{ period, align string }{
		{"0h", finopsv1.AlignActivatedAt}, {"000s", finopsv1.AlignActivatedAt}, {"0m", finopsv1.AlignActivatedAt},
		{"0", finopsv1.AlignMonthBoundary}, {"00", finopsv1.AlignHourBoundary}, {"0", finopsv1.AlignDayBoundary},
	} {
		t.Run(c.align+"/"+c.period, func(t *testing.T) {
			offs := []finopsv1.Offering{ot.New("shop", "app", ot.Fee(1, c.period, c.align, 0), ot.Ready(),
				ot.Resolved(finopsv1.ResolvedPricing{ResolvedAt: metav1.NewTime(ot.Epoch()), Meters: []finopsv1.ResolvedMeter{}}))}
			r := evalWith(nil, nil, offs...)
			require.Len(t, r.Offerings, 1)
			o := r.Offerings[0]
			for _, typ := range []string{offering.TypeReady, offering.TypePricingResolved} {
				cond := conditions.Find(o.Status.Conditions, typ)
				require.NotNil(t, cond, typ)
				assert.Equal(t, metav1.ConditionFalse, cond.Status, typ)
				assert.Equal(t, string(offering.ReasonInvalidSubscriptionFee), cond.Reason, typ)
				assert.Contains(t, cond.Message, `spec.pricing.subscriptionFee.period "`+c.period+`"`, typ)
			}
			assert.Equal(t, metav1.ConditionFalse, o.Status.Ready)
			assert.Nil(t, o.Status.ResolvedPricing, "published pricing is withdrawn")
			assert.True(t, o.Write)
			assert.False(t, o.Retry, "terminal: nothing to try again")
			assert.True(t, offering.Vocabulary.IsTerminal(*conditions.Find(o.Status.Conditions, offering.TypeReady)))
		})
	}
	offs := []finopsv1.Offering{ot.New("shop", "app", ot.Fee(1, "0h", finopsv1.AlignActivatedAt, 0), ot.Requires(ot.Ref("shop", "nope")))}
	reason, _ := readyOf(t, offs, evalWith(nil, nil, offs...), "shop/app")
	assert.Equal(t, string(offering.ReasonRequiredOfferingNotFound), reason, "the requirement entries are checked first")
}
