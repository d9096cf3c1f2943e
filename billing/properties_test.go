package billing

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"testing"
	"time"

	"pgregory.net/rapid"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
)

// smallFee draws fees whose grids the walker can enumerate quickly.
func smallFee(t *rapid.T) Fee {
	f := Fee{PriceMicros: rapid.Int64Range(0, 1_000_000_000).Draw(t, "price")}
	f.Alignment = rapid.SampledFrom([]Alignment{ActivatedAt, HourBoundary, DayBoundary, MonthBoundary}).Draw(t, "alignment")
	switch f.Alignment {
	case ActivatedAt:
		unit := rapid.SampledFrom([]string{"s", "m", "h"}).Draw(t, "unit")
		limit := map[string]int{"s": 100_000, "m": 5000, "h": 2000}[unit]
		f.Period = strconv.Itoa(rapid.IntRange(1, limit).Draw(t, "n")) + unit
	case HourBoundary:
		f.Period = strconv.Itoa(rapid.IntRange(1, 72).Draw(t, "n"))
	case DayBoundary:
		f.Period = strconv.Itoa(rapid.IntRange(1, 20).Draw(t, "n"))
	case MonthBoundary:
		f.Period = strconv.Itoa(rapid.IntRange(1, 30).Draw(t, "n"))
	}
	return f
}

// approxPeriod is an upper bound on one tick, used to keep draws within a
// few hundred ticks of activation.
func approxPeriod(f Fee) time.Duration {
	p, _ := f.parse()
	switch p.align {
	case ActivatedAt:
		return time.Duration(p.n) * time.Second
	case HourBoundary:
		return time.Duration(p.n) * time.Hour
	case DayBoundary:
		return time.Duration(p.n) * 24 * time.Hour
	default:
		return time.Duration(p.n) * 31 * 24 * time.Hour
	}
}

// instant draws a time in 2020-2031 with whole seconds most of the time and
// a sub-second fraction sometimes, landing on an hour now and then.
func instant(t *rapid.T, label string) time.Time {
	sec := rapid.Int64Range(at("2020-01-01T00:00:00Z").Unix(), at("2031-01-01T00:00:00Z").Unix()).Draw(t, label)
	switch rapid.IntRange(0, 3).Draw(t, label+"_kind") {
	case 0:
		sec -= sec % 3600
	case 1:
		return time.Unix(sec, rapid.Int64Range(0, 999_999_999).Draw(t, label+"_ns")).UTC()
	}
	return time.Unix(sec, 0).UTC()
}

// near draws an instant within about n ticks either side of base,
// sometimes exactly on a boundary.
func near(t *rapid.T, s Schedule, f Fee, base time.Time, n int64, label string) time.Time {
	if rapid.IntRange(0, 3).Draw(t, label+"_onBoundary") == 0 {
		return s.boundary(rapid.Int64Range(1, n).Draw(t, label+"_k"))
	}
	span := int64(approxPeriod(f)/time.Second) * n
	return base.Add(time.Duration(rapid.Int64Range(-span/8, span).Draw(t, label+"_off")) * time.Second)
}

type drawn struct {
	fee Fee
	s   Schedule
	w   walker
}

// ordered draws two instants near the schedule's first n boundaries
// (as near does), the earlier first.
func (d drawn) ordered(t *rapid.T, n int64) (x, y time.Time) {
	x = near(t, d.s, d.fee, d.w.a, n, "x")
	y = near(t, d.s, d.fee, d.w.a, n, "y")
	if y.Before(x) {
		x, y = y, x
	}
	return x, y
}

func drawSchedule(t *rapid.T, withDeactivation bool) drawn {
	f := smallFee(t)
	a := instant(t, "activatedAt")
	s, err := NewSchedule(f, a)
	if err != nil {
		t.Fatalf("NewSchedule(%+v): %v", f, err)
	}
	w := newWalker(f, a)
	if withDeactivation && rapid.Bool().Draw(t, "deactivated") {
		d := near(t, s, f, a, 100, "deactivatedAt")
		s, err = s.Deactivated(d)
		if err != nil {
			t.Fatal(err)
		}
		// The model reads deactivatedAt at whole seconds, as it reads
		// activatedAt (newWalker).
		d = d.UTC().Truncate(time.Second)
		w.deact = &d
	}
	return drawn{f, s, w}
}

func mustFeeR(t *rapid.T, s Schedule, a, b time.Time) int64 {
	v, err := s.Fee(a, b)
	if err != nil {
		t.Fatalf("Fee(%s, %s): %v", a, b, err)
	}
	return v
}

func TestProperty_ClosedFormMatchesWalk(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := drawSchedule(t, true)
		x, y := d.ordered(t, 200)
		if got, want := d.s.Ticks(y), d.w.ticks(y); got != want {
			t.Fatalf("Ticks(%s) = %d, walk %d", y, got, want)
		}
		if got, want := d.s.Snap(x), d.w.snap(x); !got.Equal(want) {
			t.Fatalf("Snap(%s) = %s, walk %s", x, got, want)
		}
		if got, want := mustFeeR(t, d.s, x, y), d.w.charge(x, y); want.Cmp(big.NewInt(got)) != 0 {
			t.Fatalf("Fee(%s, %s) = %d, walk %s", x, y, got, want)
		}
		got, err := d.s.Buckets(y, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range d.w.buckets(y) {
			if want[0].Cmp(big.NewInt(got[i].Current)) != 0 || want[1].Cmp(big.NewInt(got[i].Projected)) != 0 {
				t.Fatalf("%s bucket at %s = %d/%d, walk %s/%s", got[i].Granularity, y, got[i].Current, got[i].Projected, want[0], want[1])
			}
		}
	})
}

func TestProperty_FeeAdditive(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := drawSchedule(t, true)
		var p [3]time.Time
		for i := range p {
			p[i] = near(t, d.s, d.fee, d.w.a, 300, "p"+strconv.Itoa(i))
		}
		sortTimes(p[:])
		ab, bc, ac := mustFeeR(t, d.s, p[0], p[1]), mustFeeR(t, d.s, p[1], p[2]), mustFeeR(t, d.s, p[0], p[2])
		if ab+bc != ac {
			t.Fatalf("fee(a,b)+fee(b,c) = %d+%d != fee(a,c) = %d", ab, bc, ac)
		}
	})
}

func TestProperty_MonotoneAndNonNegative(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := drawSchedule(t, true)
		x, y := d.ordered(t, 300)
		if d.s.Ticks(x) < 0 || d.s.Ticks(x) > d.s.Ticks(y) {
			t.Fatalf("Ticks not monotone: %d at %s, %d at %s", d.s.Ticks(x), x, d.s.Ticks(y), y)
		}
		origin := minInstant
		fx, fy := mustFeeR(t, d.s, origin, x), mustFeeR(t, d.s, origin, y)
		if fx < 0 || fx > fy || mustFeeR(t, d.s, x, y) < 0 {
			t.Fatalf("cumulative fee not monotone or negative: %d at %s, %d at %s", fx, x, fy, y)
		}
	})
}

// However a span is cut into windows, each boundary is charged in exactly
// one of them: the rows sum to the walker's total for the span.
func TestProperty_BoundaryCountedOnceWhateverWindows(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := drawSchedule(t, true)
		n := rapid.IntRange(2, 12).Draw(t, "cuts")
		cuts := make([]time.Time, n)
		for i := range cuts {
			cuts[i] = near(t, d.s, d.fee, d.w.a, 150, "cut"+strconv.Itoa(i))
		}
		sortTimes(cuts)
		var sum, ticks int64
		for i := 1; i < n; i++ {
			sum += mustFeeR(t, d.s, cuts[i-1], cuts[i])
			ticks += d.s.Ticks(cuts[i]) - d.s.Ticks(cuts[i-1])
		}
		if want := d.w.charge(cuts[0], cuts[n-1]); want.Cmp(big.NewInt(sum)) != 0 {
			t.Fatalf("rows sum to %d, walk over the span %s", sum, want)
		}
		if want := d.w.ticks(cuts[n-1]) - d.w.ticks(cuts[0]); ticks != want {
			t.Fatalf("rows count %d boundaries, walk %d", ticks, want)
		}
	})
}

func TestProperty_SnapKeepsBoundaries(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := drawSchedule(t, false)
		k := rapid.Int64Range(1, 500).Draw(t, "k")
		b := d.s.boundary(k)
		if got := d.s.Snap(b); !got.Equal(b) {
			t.Fatalf("Snap moved boundary %d %s to %s", k, b, got)
		}
		x := near(t, d.s, d.fee, d.w.a, 300, "x")
		sn := d.s.Snap(x)
		if sn.Before(x) || d.s.Ticks(sn)-d.s.Ticks(sn.Add(-time.Nanosecond)) != 1 {
			t.Fatalf("Snap(%s) = %s is not the next boundary", x, sn)
		}
		if nb := d.s.NextBoundary(x); !nb.After(x) || nb.Before(sn) {
			t.Fatalf("NextBoundary(%s) = %s, Snap %s", x, nb, sn)
		}
	})
}

// Projected never falls below what is charged inside the window before the
// deactivation, nor below current's fee part.
func TestProperty_ProjectedCoversChargesBeforeDeactivation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := drawSchedule(t, true)
		run := near(t, d.s, d.fee, d.w.a, 200, "run")
		got, err := d.s.Buckets(run, nil)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := NewSchedule(d.fee, d.w.a)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range got {
			end := b.EndExclusive.Time
			if d.w.deact != nil && d.w.deact.Before(end) {
				end = *d.w.deact
			}
			before := int64(0)
			if end.After(b.Start.Time) {
				before = mustFeeR(t, raw, b.Start.Time, end)
			}
			if b.Projected < before || b.Projected < b.Current || b.Current < 0 {
				t.Fatalf("%s bucket projected %d, current %d, charged before deactivation %d", b.Granularity, b.Projected, b.Current, before)
			}
			if b.Granularity == finopsv1.GranularityHour && b.Current != 0 {
				t.Fatalf("hour bucket fee current %d, want 0", b.Current)
			}
		}
	})
}

// Periods from one second to 120 months over a century: the fee is exact
// or ErrOverflow, exactly when the true amount exceeds int64.
func TestProperty_NoSilentOverflow(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := Fee{Alignment: rapid.SampledFrom([]Alignment{ActivatedAt, HourBoundary, DayBoundary, MonthBoundary}).Draw(t, "alignment")}
		switch f.Alignment {
		case ActivatedAt:
			f.Period = strconv.FormatInt(rapid.Int64Range(1, 120*2629800).Draw(t, "seconds"), 10) + "s"
		case HourBoundary:
			f.Period = strconv.FormatInt(rapid.Int64Range(1, 120*731).Draw(t, "hours"), 10)
		case DayBoundary:
			f.Period = strconv.FormatInt(rapid.Int64Range(1, 120*31).Draw(t, "days"), 10)
		case MonthBoundary:
			f.Period = strconv.FormatInt(rapid.Int64Range(1, 120).Draw(t, "months"), 10)
		}
		f.PriceMicros = rapid.OneOf(rapid.Int64Range(0, math.MaxInt64), rapid.Int64Range(1, 1_000_000_000)).Draw(t, "price")
		aSec := rapid.Int64Range(0, at("2100-01-01T00:00:00Z").Unix()).Draw(t, "activatedAt")
		a := time.Unix(aSec, 0).UTC()
		end := a.AddDate(rapid.IntRange(0, 100).Draw(t, "years"), 0, 0)
		s, err := NewSchedule(f, a)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Fee(a, end)
		n := s.Ticks(end)
		want := new(big.Int)
		if n > 0 {
			want.Mul(big.NewInt(f.PriceMicros), big.NewInt(n-1))
			w := newWalker(f, a)
			want.Add(want, w.amount(1, s.boundary(1)))
		}
		if want.IsInt64() {
			if err != nil || got != want.Int64() {
				t.Fatalf("Fee = %d, %v; want %s", got, err, want)
			}
		} else if !errors.Is(err, ErrOverflow) {
			t.Fatalf("Fee = %d, %v; want ErrOverflow for %s", got, err, want)
		}
		// No cap on the opening tick: the opening is at most the price times the
		// longest first period over the proration denominator (a 31-day
		// month against 30.4375 days).
		bound := new(big.Int).Mul(big.NewInt(f.PriceMicros), big.NewInt(31*86400))
		bound.Quo(bound, big.NewInt(2629800))
		if !s.openingOver && (s.prorated < 0 || big.NewInt(s.prorated).Cmp(bound) > 0) {
			t.Fatalf("opening charge %d outside [0, %s]", s.prorated, bound)
		}
	})
}

func sortTimes(ts []time.Time) {
	for i := 1; i < len(ts); i++ {
		for j := i; j > 0 && ts[j].Before(ts[j-1]); j-- {
			ts[j], ts[j-1] = ts[j-1], ts[j]
		}
	}
}

// The day bucket's projected fee is the sum of its 24 hourly rows, and its
// current the sum of the rows before the run's hour: buckets and charge rows
// never disagree.
func TestProperty_DayBucketEqualsHourlyRows(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := drawSchedule(t, true)
		run := near(t, d.s, d.fee, d.w.a, 100, "run")
		got, err := d.s.Buckets(run, nil)
		if err != nil {
			t.Fatal(err)
		}
		day := got[1]
		var rows, before int64
		for h := day.Start.Time; h.Before(day.EndExclusive.Time); h = h.Add(time.Hour) {
			v := mustFeeR(t, d.s, h, h.Add(time.Hour))
			rows += v
			if h.Before(got[0].Start.Time) {
				before += v
			}
		}
		if rows != day.Projected || before != day.Current {
			t.Fatalf("day bucket %d/%d, hourly rows %d/%d", day.Current, day.Projected, before, rows)
		}
	})
}
