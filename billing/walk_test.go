package billing

import (
	"math/big"
	"time"
)

// walker is the reference implementation: it steps from boundary to
// boundary with the calendar functions of package time, sharing nothing
// with the closed form but the period parser. It is the oracle of the
// property tests and the baseline of the benchmarks.
type walker struct {
	f       Fee
	p       period
	a       time.Time
	deact   *time.Time
	maxStep int // safety net so a bad generator cannot hang the suite
}

func newWalker(f Fee, a time.Time) walker {
	p, err := f.parse()
	if err != nil {
		panic(err)
	}
	return walker{f: f, p: p, a: a.UTC().Truncate(time.Second), maxStep: 50_000_000}
}

// each calls yield with the boundaries in order, numbered from 1, until
// yield returns false.
func (w walker) each(yield func(k int64, b time.Time) bool) {
	var b time.Time
	var next func(time.Time) time.Time
	a := w.a
	switch w.p.align {
	case ActivatedAt:
		d := time.Duration(w.p.n) * time.Second
		b = a.Add(d)
		next = func(t time.Time) time.Time { return t.Add(d) }
	case HourBoundary:
		b = a.Truncate(time.Hour)
		for !b.After(a) || b.Unix()%(w.p.n*3600) != 0 {
			b = b.Add(time.Hour)
		}
		next = func(t time.Time) time.Time { return t.Add(time.Duration(w.p.n) * time.Hour) }
	case DayBoundary:
		y, m, d := a.Date()
		b = time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC)
		next = func(t time.Time) time.Time { return t.AddDate(0, 0, int(w.p.n)) }
	case MonthBoundary:
		y, m, _ := a.Date()
		b = time.Date(y, m+time.Month(w.p.n), 1, 0, 0, 0, 0, time.UTC)
		next = func(t time.Time) time.Time { return t.AddDate(0, int(w.p.n), 0) }
	}
	for k := int64(1); k <= int64(w.maxStep); k++ {
		if !yield(k, b) {
			return
		}
		b = next(b)
	}
	panic("walker: step limit reached")
}

func (w walker) ticks(t time.Time) int64 {
	var n int64
	w.each(func(k int64, b time.Time) bool {
		if b.After(t) {
			return false
		}
		n = k
		return true
	})
	return n
}

// snap is the first boundary at or after t (the first boundary when t is at
// or before activation).
func (w walker) snap(t time.Time) time.Time {
	var s time.Time
	w.each(func(_ int64, b time.Time) bool {
		s = b
		return b.Before(t)
	})
	return s
}

// amount is the charge of boundary k at b, as a big.Int.
func (w walker) amount(k int64, b time.Time) *big.Int {
	price := big.NewInt(w.f.PriceMicros)
	if k > 1 || w.p.align == ActivatedAt {
		return price
	}
	secs := int64(b.Sub(w.a) / time.Second)
	var denom int64
	switch w.p.align {
	case HourBoundary:
		denom = w.p.n * 3600
	case DayBoundary:
		denom = w.p.n * 86400
	case MonthBoundary:
		denom = w.p.n * 2629800
	}
	v := new(big.Int).Mul(price, big.NewInt(secs))
	return v.Quo(v, big.NewInt(denom))
}

// fee sums the boundaries in (start, end] one by one, stopping at the
// snapped deactivation.
func (w walker) charge(start, end time.Time) *big.Int {
	sum := new(big.Int)
	var stop time.Time
	if w.deact != nil {
		stop = w.snap(*w.deact)
	}
	w.each(func(k int64, b time.Time) bool {
		if b.After(end) || (w.deact != nil && b.After(stop)) {
			return false
		}
		if b.After(start) {
			sum.Add(sum, w.amount(k, b))
		}
		return true
	})
	return sum
}

// buckets is the walking counterpart of Schedule.Buckets (fee only), as
// (current, projected) pairs.
func (w walker) buckets(scheduled time.Time) [3][2]*big.Int {
	h := scheduled.UTC().Truncate(time.Hour)
	y, m, d := h.Date()
	windows := [3][2]time.Time{
		{h, h.Add(time.Hour)},
		{time.Date(y, m, d, 0, 0, 0, 0, time.UTC), time.Date(y, m, d, 0, 0, 0, 0, time.UTC).AddDate(0, 0, 1)},
		{time.Date(y, m, 1, 0, 0, 0, 0, time.UTC), time.Date(y, m, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 1, 0)},
	}
	var out [3][2]*big.Int
	for i, win := range windows {
		cur := big.NewInt(0)
		if win[0].Before(h) {
			cur = w.charge(win[0], h)
		}
		out[i] = [2]*big.Int{cur, w.charge(win[0], win[1])}
	}
	return out
}
