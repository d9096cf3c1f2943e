package billing

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/redact"
)

// Alignment says where a fee's tick boundaries fall. The values are the
// Offering's spec.pricing.subscriptionFee.tickAlignment enum.
type Alignment string

// The four tick alignments.
const (
	// ActivatedAt puts boundaries at activatedAt + N×period, a grid private
	// to each Subscription. Never prorated.
	ActivatedAt Alignment = v1alpha1.AlignActivatedAt
	// HourBoundary puts boundaries on a cluster-wide UTC grid every period
	// hours, counted from the Unix epoch (period 6 gives 00, 06, 12, 18).
	HourBoundary Alignment = v1alpha1.AlignHourBoundary
	// DayBoundary puts the first boundary at the first UTC midnight after
	// activation and then one every period days.
	DayBoundary Alignment = v1alpha1.AlignDayBoundary
	// MonthBoundary puts boundaries on the 1st of a calendar month, 00:00 UTC:
	// the first one period months after the activation month, then one
	// every period months.
	MonthBoundary Alignment = v1alpha1.AlignMonthBoundary
)

// Fee is an Offering's subscription fee as written in its spec
// (spec.pricing.subscriptionFee). Validate or NewSchedule check it.
type Fee struct {
	// PriceMicros is charged at every tick boundary, in micro-units of the
	// PriceBook currency. Zero is accepted and charges nothing; negative is an
	// error.
	PriceMicros int64
	// Period is the tick length. For ActivatedAt it is digits and one unit
	// letter h, m or s ("1h", "90m", "3600s"). For the boundary alignments it
	// is a plain count of the alignment's unit ("1", "6"); HourBoundary also
	// accepts the count with an "h" suffix ("6h"). See the package Decisions.
	Period string
	// Alignment is the tick grid.
	Alignment Alignment
	// MinPeriods is the finalizer's cleanup guard: zero means none.
	MinPeriods int64
}

// Errors returned by this package wrap one of these, so callers can tell bad
// configuration from arithmetic limits with errors.Is.
var (
	// ErrInvalidFee marks a fee block that cannot be priced.
	ErrInvalidFee = errors.New("invalid subscription fee")
	// ErrOverflow marks an amount beyond the int64 micro-unit range; money is
	// never wrapped or saturated silently.
	ErrOverflow = errors.New("amount exceeds the int64 micro-unit range")
	// ErrTimeRange marks an instant outside years 1 to 9999 UTC.
	ErrTimeRange = errors.New("time outside years 0001-9999 UTC")
	// ErrInvalidWindow marks a window whose end is before its start.
	ErrInvalidWindow = errors.New("window end before start")
	// ErrInvalidUsage marks a usage amount the host hook returned that cannot
	// be added to a bucket.
	ErrInvalidUsage = errors.New("invalid usage charge")
	// ErrZeroPeriod marks a period of the form its alignment takes that
	// counts no unit ("0h", "000s", "0"): the CRD admits it, but a fee on
	// it prices nothing and would divide by zero. An error that wraps it
	// wraps ErrInvalidFee too.
	ErrZeroPeriod = errors.New("zero subscription fee period")
)

// zeroPeriod is the error of a period that counts no unit: ErrInvalidFee's
// text, and errors.Is holds for ErrZeroPeriod as well.
type zeroPeriod struct{ error }

func (zeroPeriod) Is(target error) bool { return target == ErrZeroPeriod }
func (z zeroPeriod) Unwrap() error      { return z.error }

// ZeroPeriod reports whether period has the form alignment takes (the
// forms Fee.Period lists) and counts no unit: "0h", "000s" or "0m" under
// ActivatedAt, "0" or "00" under a boundary alignment ("0h" too under
// HourBoundary). An Offering with such a fee can never be priced.
func ZeroPeriod(alignment Alignment, period string) bool {
	_, err := parsePeriod(alignment, period)
	return errors.Is(err, ErrZeroPeriod)
}

// feePath is the field path used in error messages, as an Offering user
// would find the field.
const feePath = "spec.pricing.subscriptionFee"

// Upper bounds on a period: about ten thousand years in each unit. A longer
// period could never tick inside the supported time range, and the bound
// keeps every boundary computation far from int64 limits.
const (
	secondsPerHour    = 3600
	secondsPerDay     = 86400
	maxPeriodSeconds  = 10000 * 31557600 // 10,000 Julian years
	maxPeriodHours    = maxPeriodSeconds / secondsPerHour
	maxPeriodDays     = maxPeriodSeconds / secondsPerDay
	maxPeriodMonths   = 10000 * 12
	prorationMonthSec = 2629800 // 365.25/12 days: the proration month, not a calendar month
)

// period is a parsed fee period. n is in seconds for ActivatedAt and in
// hours, days or calendar months for the boundary alignments.
type period struct {
	align Alignment
	n     int64
}

// Validate reports whether the fee can be priced: a known alignment, a
// period that parses for it, a non-negative price and a non-negative
// MinPeriods. The error names the field and wraps ErrInvalidFee.
func (f Fee) Validate() error {
	_, err := f.parse()
	return err
}

func (f Fee) parse() (period, error) {
	if f.PriceMicros < 0 {
		return period{}, fieldError("priceMicros", strconv.FormatInt(f.PriceMicros, 10), "must not be negative")
	}
	if f.MinPeriods < 0 {
		return period{}, fieldError("minPeriods", strconv.FormatInt(f.MinPeriods, 10), "must not be negative")
	}
	return parsePeriod(f.Alignment, f.Period)
}

// parsePeriod reads a period for an alignment. It accepts exactly the forms
// the Offering CRD admits, plus "<n>h" for HourBoundary, and rejects
// everything else rather than guessing.
func parsePeriod(a Alignment, s string) (period, error) {
	switch a {
	case ActivatedAt:
		if len(s) < 2 {
			return period{}, periodError(a, s, "must be digits followed by h, m or s (e.g. \"1h\")")
		}
		var unit int64
		switch s[len(s)-1] {
		case 'h':
			unit = secondsPerHour
		case 'm':
			unit = 60
		case 's':
			unit = 1
		default:
			return period{}, periodError(a, s, "must be digits followed by h, m or s (e.g. \"1h\")")
		}
		n, err := parseCount(a, s, s[:len(s)-1], maxPeriodSeconds/unit)
		if err != nil {
			return period{}, err
		}
		return period{align: a, n: n * unit}, nil
	case HourBoundary:
		digits := s
		if len(s) > 1 && s[len(s)-1] == 'h' {
			digits = s[:len(s)-1]
		}
		n, err := parseCount(a, s, digits, maxPeriodHours)
		return period{align: a, n: n}, err
	case DayBoundary:
		n, err := parseCount(a, s, s, maxPeriodDays)
		return period{align: a, n: n}, err
	case MonthBoundary:
		n, err := parseCount(a, s, s, maxPeriodMonths)
		return period{align: a, n: n}, err
	default:
		return period{}, fieldError("tickAlignment", string(a), "must be one of ActivatedAt, HourBoundary, DayBoundary, MonthBoundary")
	}
}

// parseCount reads ASCII digits only: no sign, no spaces, no separators, so
// that what is accepted is exactly what the CRD pattern admits.
func parseCount(a Alignment, whole, digits string, limit int64) (int64, error) {
	if digits == "" {
		return 0, periodError(a, whole, periodForm(a))
	}
	var n int64
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		if c < '0' || c > '9' {
			return 0, periodError(a, whole, periodForm(a))
		}
		n = n*10 + int64(c-'0')
		if n > limit {
			return 0, periodError(a, whole, fmt.Sprintf("must not exceed %d in its unit (about 10,000 years)", limit))
		}
	}
	if n == 0 {
		return 0, zeroPeriod{periodError(a, whole, "must be greater than zero")}
	}
	return n, nil
}

func periodForm(a Alignment) string {
	switch a {
	case ActivatedAt:
		return "must be digits followed by h, m or s (e.g. \"1h\")"
	case HourBoundary:
		return "must be a whole number of hours, optionally with an h suffix (e.g. \"6\" or \"6h\")"
	default:
		return "must be a plain whole number (e.g. \"1\"); unit suffixes are not accepted for " + string(a)
	}
}

func periodError(a Alignment, value, problem string) error {
	return fieldError("period", value, problem+" for "+string(a)+" alignment")
}

func fieldError(field, value, problem string) error {
	value = redact.Clip(value, 64)
	return fmt.Errorf("%w: %s.%s %s: %s", ErrInvalidFee, feePath, field, strconv.Quote(value), problem)
}
