package offering

import (
	"errors"
	"fmt"
	"math"
	"math/bits"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/pricebook"
)

// meterField maps a meter to the PriceBook rate behind it. The
// subscription meter has no rate: the fee block prices a subscription,
// so the meter is accepted and resolves at zero whatever its margins.
var meterField = map[string]pricebook.Field{
	finopsv1.MeterCPUHour:   pricebook.CPUHour,
	finopsv1.MeterGPUHour:   pricebook.GPUHour,
	finopsv1.MeterRAMGbHour: pricebook.RAMGbHour,
	finopsv1.MeterPVGbHour:  pricebook.PVGbHour,
	finopsv1.MeterNetworkGb: pricebook.NetworkGiB,
}

// resolveMeters prices each declared meter against the book, in spec
// order. A name declared twice is priced once, from its first entry, as
// the published list is keyed on the name. The error text names the
// meter and the value that failed.
func resolveMeters(spec []finopsv1.ResourcePricing, book *finopsv1.PriceBook) ([]finopsv1.ResolvedMeter, error) {
	out := make([]finopsv1.ResolvedMeter, 0, len(spec))
	seen := make(map[string]bool, len(spec))
	for _, m := range spec {
		if seen[m.Name] {
			continue
		}
		seen[m.Name] = true
		if m.Name == finopsv1.MeterSubscription {
			out = append(out, finopsv1.ResolvedMeter{Name: m.Name})
			continue
		}
		f, ok := meterField[m.Name]
		if !ok {
			return nil, fmt.Errorf("meter %q: no pricebook rate backs this meter", m.Name)
		}
		rate, err := pricebook.ParseField(book.Spec.Rates, f)
		if err != nil {
			return nil, fmt.Errorf("meter %q: %w", m.Name, foreignRate(err))
		}
		price, err := ApplyMargins(rate, m.Margins)
		if err != nil {
			return nil, fmt.Errorf("meter %q: %w", m.Name, err)
		}
		out = append(out, finopsv1.ResolvedMeter{Name: m.Name, UnitPriceMicros: price})
	}
	return out, nil
}

// ApplyMargins applies a meter's margins to a rate in micro-units:
// absoluteMicros is added, factorMilli multiplies by factor/1000 rounded
// down. The product is taken in 128 bits, so only a result that does not
// fit int64 fails; money is never wrapped or saturated. A negative rate
// or margin, or both margins at once, is refused (admission forbids
// them; a snapshot may still hold them).
func ApplyMargins(rate int64, m *finopsv1.Margins) (int64, error) {
	if rate < 0 {
		return 0, fmt.Errorf("rate %d micros is negative", rate)
	}
	if m == nil {
		return rate, nil
	}
	switch {
	case m.AbsoluteMicros != nil && m.FactorMilli != nil:
		return 0, fmt.Errorf("margins absoluteMicros %d and factorMilli %d are mutually exclusive", *m.AbsoluteMicros, *m.FactorMilli)
	case m.AbsoluteMicros != nil:
		a := *m.AbsoluteMicros
		if a < 0 {
			return 0, fmt.Errorf("margin absoluteMicros %d is negative", a)
		}
		if rate > math.MaxInt64-a {
			return 0, fmt.Errorf("rate %d micros plus absoluteMicros %d is too large for int64 micro-units", rate, a)
		}
		return rate + a, nil
	case m.FactorMilli != nil:
		f := *m.FactorMilli
		if f < 0 {
			return 0, fmt.Errorf("margin factorMilli %d is negative", f)
		}
		hi, lo := bits.Mul64(uint64(rate), uint64(f))
		if hi >= 1000 { // the quotient would not fit 64 bits; Div64 requires hi < divisor
			return 0, factorOverflow(rate, f)
		}
		q, _ := bits.Div64(hi, lo, 1000)
		if q > math.MaxInt64 {
			return 0, factorOverflow(rate, f)
		}
		return int64(q), nil
	}
	return rate, nil
}

func factorOverflow(rate, f int64) error {
	return fmt.Errorf("rate %d micros times factorMilli %d / 1000 is too large for int64 micro-units", rate, f)
}

// foreignRate redacts the value a rate error quotes: on an Offering it is
// the PriceBook's text, not the Offering's own.
func foreignRate(err error) error {
	var re *pricebook.RateError
	if !errors.As(err, &re) {
		return err
	}
	c := *re
	c.Value = foreign(c.Value)
	return &c
}
