package billing

import (
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"
)

var (
	durationForm = regexp.MustCompile(`^[0-9]+[hms]$`)
	hourForm     = regexp.MustCompile(`^[0-9]+h?$`)
	plainForm    = regexp.MustCompile(`^[0-9]+$`)
)

// FuzzParsePeriod: no panic, every error wraps ErrInvalidFee, and anything
// accepted matches the CRD form for its alignment with a positive length.
func FuzzParsePeriod(f *testing.F) {
	for _, s := range []string{"1h", "90m", "3600s", "0", "6", "6h", "1d", "1mo", "", "-1", "1h30m", "99999999999999999999s"} {
		for _, a := range []string{"ActivatedAt", "HourBoundary", "DayBoundary", "MonthBoundary", "x"} {
			f.Add(a, s)
		}
	}
	f.Fuzz(func(t *testing.T, align, s string) {
		p, err := parsePeriod(Alignment(align), s)
		if err != nil {
			if !errors.Is(err, ErrInvalidFee) || strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("error %q", err)
			}
			return
		}
		if p.n <= 0 {
			t.Fatalf("accepted %q with length %d", s, p.n)
		}
		var ok bool
		switch p.align {
		case ActivatedAt:
			ok = durationForm.MatchString(s) && p.n <= maxPeriodSeconds
		case HourBoundary:
			ok = hourForm.MatchString(s) && p.n <= maxPeriodHours
		case DayBoundary:
			ok = plainForm.MatchString(s) && p.n <= maxPeriodDays
		case MonthBoundary:
			ok = plainForm.MatchString(s) && p.n <= maxPeriodMonths
		}
		if !ok || string(p.align) != align {
			t.Fatalf("accepted %q for %q as %+v", s, align, p)
		}
	})
}

// span folds an arbitrary int64 into the supported Unix-second range.
func span(v int64) int64 {
	lo, hi := minInstant.Unix(), maxInstant.Unix()
	m := (v % (hi - lo))
	if m < 0 {
		m += hi - lo
	}
	return lo + m
}

// FuzzBuckets: whatever the fee, grid and instants, Buckets and Fee never
// panic, fail only with the package's errors, and keep the bucket
// invariants.
func FuzzBuckets(f *testing.F) {
	f.Add(int64(40000000), uint8(0), "1h", int64(1775034000), int64(0), false, int64(1775048400))
	f.Add(int64(300000000), uint8(3), "1", int64(1786526100), int64(1786526100+86400*40), true, int64(1788217200))
	f.Add(int64(1<<62), uint8(1), "6", int64(-62135596800), int64(253402300799), true, int64(253402300799))
	f.Fuzz(func(t *testing.T, price int64, align uint8, period string, act, deact int64, deactivated bool, run int64) {
		fee := Fee{PriceMicros: price, Period: period, Alignment: []Alignment{ActivatedAt, HourBoundary, DayBoundary, MonthBoundary}[align%4]}
		a := time.Unix(span(act), 0).UTC()
		s, err := NewSchedule(fee, a)
		if err != nil {
			if !errors.Is(err, ErrInvalidFee) {
				t.Fatalf("NewSchedule: %v", err)
			}
			return
		}
		if deactivated {
			if s, err = s.Deactivated(time.Unix(span(deact), 0)); err != nil {
				t.Fatalf("Deactivated: %v", err)
			}
		}
		r := time.Unix(span(run), 0).UTC()
		got, err := s.Buckets(r, nil)
		if err != nil {
			if !errors.Is(err, ErrOverflow) {
				t.Fatalf("Buckets: %v", err)
			}
			return
		}
		w := Windows(r)
		for i, b := range got {
			if !b.Start.Time.Equal(w[i][0]) || !b.EndExclusive.Time.Equal(w[i][1]) || b.Granularity != granularities[i] {
				t.Fatalf("bucket %d window %+v", i, b)
			}
			if b.Current < 0 || b.Projected < b.Current {
				t.Fatalf("%s current %d projected %d", b.Granularity, b.Current, b.Projected)
			}
			if (b.Current != 0 || b.Projected != 0) != (len(b.Breakdown) == 1) {
				t.Fatalf("%s breakdown %+v", b.Granularity, b.Breakdown)
			}
		}
		if got[0].Current != 0 {
			t.Fatalf("hour bucket fee current %d", got[0].Current)
		}
		// The day splits at the run's hour into two windows that add up.
		x, err1 := s.Fee(w[1][0], w[0][0])
		y, err2 := s.Fee(w[0][0], w[1][1])
		if err1 == nil && err2 == nil && (x != got[1].Current || x+y != got[1].Projected) {
			t.Fatalf("day %d/%d, parts %d+%d", got[1].Current, got[1].Projected, x, y)
		}
		if nb := s.NextBoundary(r); !nb.After(r) && r.Before(maxInstant) {
			t.Fatalf("NextBoundary(%s) = %s", r, nb)
		}
	})
}
