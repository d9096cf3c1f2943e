package billing

import (
	"fmt"
	"math"
	"math/bits"
	"time"
)

// The supported instants: [minInstant, maxInstant), years 0001 to 9999
// UTC, the range an RFC 3339 timestamp can hold. A bucket window of December
// 9999 ends exactly at maxInstant, which Ticks still counts correctly.
var (
	minInstant = time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC)
	maxInstant = time.Date(10000, time.January, 1, 0, 0, 0, 0, time.UTC)
)

// Schedule is one Subscription's tick grid: a validated fee, the activation
// instant and, once known, the deactivation. It is a small value; copy it
// freely. Every method is closed-form: cost does not grow with the number of
// ticks. Build it with NewSchedule; the zero Schedule counts no ticks and
// charges nothing (its boundaries are meaningless).
type Schedule struct {
	align    Alignment
	price    int64
	prorated int64 // charge for the first boundary (price unless prorated)
	// openingOver reports that the prorated opening charge does not fit
	// int64 (a month opening can exceed one price): charging it fails
	// with ErrOverflow.
	openingOver bool
	step        int64 // seconds (ActivatedAt, Hour, Day) or months (Month)
	minPeriods  int64
	aSec        int64 // activatedAt, Unix seconds
	aNsec       int32
	aMonth      int64 // activation month index (year*12 + month-1), MonthBoundary only
	first       int64 // first boundary, Unix seconds (boundary alignments)

	deactivated bool
	snapTicks   int64 // ticks up to and including the snapped end
}

// NewSchedule validates fee and builds the grid of a Subscription activated
// at activatedAt (converted to UTC and read at whole seconds, as the API
// server stores it: a fraction is dropped). It fails, wrapping ErrInvalidFee, when
// the fee does not parse, and with ErrTimeRange when activatedAt is outside
// years 0001-9999.
func NewSchedule(fee Fee, activatedAt time.Time) (Schedule, error) {
	p, err := fee.parse()
	if err != nil {
		return Schedule{}, err
	}
	if err := checkInput("activatedAt", activatedAt); err != nil {
		return Schedule{}, err
	}
	a := activatedAt.UTC().Truncate(time.Second) // whole seconds, as the API server stores it
	s := Schedule{
		align:      p.align,
		price:      fee.PriceMicros,
		prorated:   fee.PriceMicros,
		minPeriods: fee.MinPeriods,
		aSec:       a.Unix(),
		aNsec:      int32(a.Nanosecond()),
	}
	var denom int64
	switch p.align {
	case ActivatedAt:
		s.step = p.n
		s.first = s.aSec + s.step
		return s, nil
	case HourBoundary:
		s.step = p.n * secondsPerHour
		s.first = (floorDiv(s.aSec, s.step) + 1) * s.step
		denom = s.step
	case DayBoundary:
		s.step = p.n * secondsPerDay
		s.first = (floorDiv(s.aSec, secondsPerDay) + 1) * secondsPerDay
		denom = s.step
	case MonthBoundary:
		s.step = p.n
		s.aMonth = monthIndex(a)
		s.first = firstOfMonth(s.aMonth + s.step).Unix()
		denom = p.n * prorationMonthSec
	}
	// Whole seconds from activation to the first boundary: both are whole
	// seconds.
	s.prorated, s.openingOver = prorate(s.price, s.first-s.aSec, denom)
	return s, nil
}

// prorate returns price × secs / denom rounded down, with no cap
// (no cap): under MonthBoundary a calendar first period
// longer than the 30.4375-day proration month costs more than one price.
// The product is taken in 128 bits. secs never exceeds 32/30 of denom,
// so the quotient fits 64 bits; ok is false when it does not fit int64.
func prorate(price, secs, denom int64) (q int64, over bool) {
	hi, lo := bits.Mul64(uint64(price), uint64(secs))
	if hi >= uint64(denom) {
		return 0, true // cannot happen for the grids above; never panic
	}
	u, _ := bits.Div64(hi, lo, uint64(denom))
	if u > math.MaxInt64 {
		return 0, true
	}
	return int64(u), false
}

// Deactivated returns a copy of s that stops charging at the deactivation
// snap: deactivatedAt, read at whole seconds as the API server stores it
// (a fraction is dropped, as NewSchedule drops activatedAt's), moved
// forward to the next boundary of the grid, or kept when it is exactly
// on one: a deactivation at 00:00:00.5 on a boundary lies on it and
// charges nothing of the period after. The snapped instant is only used
// inside the fee calculation. A deactivatedAt at or before activatedAt
// snaps to the first boundary, so one (possibly prorated) tick is
// charged.
func (s Schedule) Deactivated(deactivatedAt time.Time) (Schedule, error) {
	if err := checkInput("deactivatedAt", deactivatedAt); err != nil {
		return s, err
	}
	s.snapTicks = s.snapIndex(deactivatedAt.UTC().Truncate(time.Second))
	s.deactivated = true
	return s, nil
}

// IsDeactivated reports whether Deactivated produced s.
func (s Schedule) IsDeactivated() bool { return s.deactivated }

// ActivatedAt returns the activation instant in UTC.
func (s Schedule) ActivatedAt() time.Time { return time.Unix(s.aSec, int64(s.aNsec)).UTC() }

// Ticks returns the number of tick boundaries in (activatedAt, t]: a
// boundary exactly at t counts, activatedAt itself never does, and any t at
// or before activatedAt gives 0. It counts the raw grid and ignores any
// deactivation (the minPeriods guard counts this way). An instant beyond the
// supported range counts as its edge.
func (s Schedule) Ticks(t time.Time) int64 {
	if s.step <= 0 {
		return 0 // the zero Schedule: no grid, nothing to count or charge
	}
	t = clamp(t)
	sec, nsec := t.Unix(), int32(t.Nanosecond())
	switch s.align {
	case ActivatedAt:
		ds := sec - s.aSec
		if nsec < s.aNsec {
			ds--
		}
		if ds < s.step {
			return 0
		}
		return ds / s.step
	case MonthBoundary:
		if sec < s.first {
			return 0
		}
		return (monthIndex(t) - s.aMonth) / s.step
	default:
		if sec < s.first {
			return 0
		}
		return 1 + (sec-s.first)/s.step
	}
}

// billedTicks is Ticks clamped to the deactivation snap.
func (s Schedule) billedTicks(t time.Time) int64 {
	n := s.Ticks(t)
	if s.deactivated && n > s.snapTicks {
		return s.snapTicks
	}
	return n
}

// boundary returns the k-th boundary (k >= 1) of the raw grid.
func (s Schedule) boundary(k int64) time.Time {
	switch s.align {
	case ActivatedAt:
		return time.Unix(s.aSec+k*s.step, int64(s.aNsec)).UTC()
	case MonthBoundary:
		return firstOfMonth(s.aMonth + k*s.step)
	default:
		return time.Unix(s.first+(k-1)*s.step, 0).UTC()
	}
}

// NextBoundary returns the first boundary strictly after t (the first
// boundary of the grid when t is at or before activatedAt).
func (s Schedule) NextBoundary(t time.Time) time.Time {
	return s.boundary(s.Ticks(t) + 1)
}

// Snap returns t when t is exactly a boundary, else the next boundary: the
// deactivation snap. Instants at or before activatedAt snap to the first
// boundary.
func (s Schedule) Snap(t time.Time) time.Time {
	return s.boundary(s.snapIndex(t))
}

func (s Schedule) snapIndex(t time.Time) int64 {
	n := s.Ticks(t)
	if n >= 1 && s.boundary(n).Equal(t) {
		return n
	}
	return n + 1
}

// Fee returns the charge for boundaries in (start, end]: PriceMicros for
// each, except that under a boundary alignment the first boundary after
// activation carries the prorated opening charge instead. After
// Deactivated, both ends are clamped to the snapped end. Fee is additive
// over adjacent windows, so summing hourly rows gives the charge of the day.
// It fails with ErrInvalidWindow when end is before start, ErrTimeRange for
// instants outside years 0001-9999 and ErrOverflow when the amount does not
// fit in int64.
func (s Schedule) Fee(start, end time.Time) (int64, error) {
	if err := checkInput("start", start); err != nil {
		return 0, err
	}
	if err := checkInput("end", end); err != nil {
		return 0, err
	}
	if end.Before(start) {
		return 0, fmt.Errorf("%w: end %s is before start %s", ErrInvalidWindow,
			end.UTC().Format(time.RFC3339Nano), start.UTC().Format(time.RFC3339Nano))
	}
	return s.charge(s.billedTicks(start), s.billedTicks(end))
}

// charge prices the boundaries numbered from+1 to to.
func (s Schedule) charge(from, to int64) (int64, error) {
	n := to - from
	if n <= 0 {
		return 0, nil
	}
	opening := int64(0)
	if from == 0 {
		if s.openingOver {
			return 0, fmt.Errorf("%w: the prorated opening tick of %d micros", ErrOverflow, s.price)
		}
		n--
		opening = s.prorated
	}
	hi, lo := bits.Mul64(uint64(s.price), uint64(n))
	if hi != 0 || lo > uint64(math.MaxInt64-opening) {
		return 0, fmt.Errorf("%w: %d ticks at %d micros", ErrOverflow, to-from, s.price)
	}
	return int64(lo) + opening, nil
}

func checkInput(name string, t time.Time) error {
	if t.Before(minInstant) || !t.Before(maxInstant) {
		return fmt.Errorf("%w: %s %s", ErrTimeRange, name, t.UTC().Format(time.RFC3339))
	}
	return nil
}

func clamp(t time.Time) time.Time {
	if t.Before(minInstant) {
		return minInstant
	}
	if t.After(maxInstant) {
		return maxInstant
	}
	return t
}

// floorDiv divides rounding toward negative infinity, so grids stay regular
// before 1970.
func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func monthIndex(t time.Time) int64 {
	y, m, _ := t.UTC().Date()
	return int64(y)*12 + int64(m) - 1
}

func firstOfMonth(idx int64) time.Time {
	return time.Date(int(floorDiv(idx, 12)), time.Month(idx-floorDiv(idx, 12)*12+1), 1, 0, 0, 0, 0, time.UTC)
}
