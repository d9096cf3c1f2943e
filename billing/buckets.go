package billing

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/api/finops/v1alpha1"
)

// SubscriptionMeter is the breakdown name of the subscription fee.
const SubscriptionMeter = "subscription"

// MeterCharge is usage the host has charged for one meter inside one bucket
// window.
type MeterCharge struct {
	// Meter is the usage meter name (cpuHour, ramGbHour, ...). It must not be
	// empty or "subscription".
	Meter string
	// Micros is the amount; it must not be negative.
	Micros int64
}

// UsageFunc is the host's hook for metered usage. Buckets calls it once per
// bucket with the window [start, endExclusive) and adds what it returns to
// the bucket's current amount and breakdown. The host sums its own charge
// rows whose hour falls in the window, the in-progress hour included; it
// returns nothing for meters without rated data (a meter is absent rather
// than zero). Entries may come in any order and a meter may repeat (the
// amounts are summed); the returned slice is not kept or modified. A nil
// UsageFunc means a fee-only Subscription.
type UsageFunc func(g v1alpha1.Granularity, start, endExclusive time.Time) []MeterCharge

// Windows returns the three bucket windows for a run scheduled at
// scheduled: the hour it falls in, its UTC day and its calendar month, each
// as [start, endExclusive).
func Windows(scheduled time.Time) [3][2]time.Time {
	h := scheduled.UTC().Truncate(time.Hour)
	y, m, d := h.Date()
	return [3][2]time.Time{
		{h, h.Add(time.Hour)},
		{time.Date(y, m, d, 0, 0, 0, 0, time.UTC), time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC)},
		{time.Date(y, m, 1, 0, 0, 0, 0, time.UTC), time.Date(y, m+1, 1, 0, 0, 0, 0, time.UTC)},
	}
}

var granularities = [3]v1alpha1.Granularity{v1alpha1.GranularityHour, v1alpha1.GranularityDay, v1alpha1.GranularityMonth}

// Buckets computes status.costs for a run scheduled at scheduled: the hour,
// day and month buckets, in that order. For each window, current is the fee
// for boundaries in (start, scheduled hour] plus the usage the hook reports,
// and projected is the fee for boundaries in (start, endExclusive], both cut
// back at the deactivation snap. The subscription breakdown entry appears
// when either fee figure is non-zero; usage entries carry current only.
// Errors: ErrTimeRange for a scheduled instant outside years 0001-9999,
// ErrOverflow when an amount does not fit in int64, ErrInvalidUsage for a
// bad hook result.
func (s Schedule) Buckets(scheduled time.Time, usage UsageFunc) ([3]v1alpha1.CostBucket, error) {
	var out [3]v1alpha1.CostBucket
	if err := checkInput("scheduled", scheduled); err != nil {
		return out, err
	}
	w := Windows(scheduled)
	through := s.billedTicks(w[0][0])
	// One backing array for the three subscription entries: a single
	// allocation per Subscription on the fee-only path. Each bucket gets a
	// capacity-limited slice of it, so appending usage copies rather than
	// overwriting the next bucket's entry.
	var fees []v1alpha1.CostMetric
	for i, g := range granularities {
		start, end := w[i][0], w[i][1]
		from := s.billedTicks(start)
		current, err := s.charge(from, through)
		if err != nil {
			return out, fmt.Errorf("%s bucket current: %w", g, err)
		}
		projected, err := s.charge(from, s.billedTicks(end))
		if err != nil {
			return out, fmt.Errorf("%s bucket projected: %w", g, err)
		}
		b := v1alpha1.CostBucket{
			Granularity:  g,
			Start:        metav1.NewTime(start),
			EndExclusive: metav1.NewTime(end),
			Current:      current,
			Projected:    projected,
		}
		if current != 0 || projected != 0 {
			if fees == nil {
				fees = make([]v1alpha1.CostMetric, 0, len(granularities))
			}
			fees = append(fees, v1alpha1.CostMetric{Name: SubscriptionMeter, Current: current, Projected: projected})
			b.Breakdown = fees[len(fees)-1 : len(fees) : len(fees)]
		}
		if usage != nil {
			if err := addUsage(&b, usage(g, start, end)); err != nil {
				return out, fmt.Errorf("%s bucket: %w", g, err)
			}
		}
		out[i] = b
	}
	return out, nil
}

// addUsage merges the hook's charges into b: validated, summed per meter,
// sorted by name after the subscription entry, zero sums dropped.
func addUsage(b *v1alpha1.CostBucket, charges []MeterCharge) error {
	if len(charges) == 0 {
		return nil
	}
	sorted := slices.Clone(charges)
	slices.SortFunc(sorted, func(x, y MeterCharge) int { return cmp.Compare(x.Meter, y.Meter) })
	for i := 0; i < len(sorted); {
		c := sorted[i]
		if c.Meter == "" || c.Meter == SubscriptionMeter {
			return fmt.Errorf("%w: meter name %q is not a usage meter", ErrInvalidUsage, c.Meter)
		}
		var sum int64
		j := i
		for ; j < len(sorted) && sorted[j].Meter == c.Meter; j++ {
			if sorted[j].Micros < 0 {
				return fmt.Errorf("%w: meter %q amount %d is negative", ErrInvalidUsage, c.Meter, sorted[j].Micros)
			}
			if sorted[j].Micros > math.MaxInt64-sum {
				return fmt.Errorf("%w: meter %q usage sum", ErrOverflow, c.Meter)
			}
			sum += sorted[j].Micros
		}
		i = j
		if sum == 0 {
			continue
		}
		if sum > math.MaxInt64-b.Current {
			return fmt.Errorf("%w: current plus meter %q usage", ErrOverflow, c.Meter)
		}
		b.Current += sum
		b.Breakdown = append(b.Breakdown, v1alpha1.CostMetric{Name: c.Meter, Current: sum})
	}
	return nil
}
