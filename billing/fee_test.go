package billing

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParsePeriod_AcceptedForms(t *testing.T) {
	cases := []struct {
		align Alignment
		in    string
		want  int64
	}{
		{ActivatedAt, "1h", 3600},
		{ActivatedAt, "90m", 5400},
		{ActivatedAt, "3600s", 3600},
		{ActivatedAt, "24h", 86400},
		{ActivatedAt, "01h", 3600},
		{HourBoundary, "1", 1},
		{HourBoundary, "6", 6},
		{HourBoundary, "6h", 6},
		{DayBoundary, "1", 1},
		{DayBoundary, "7", 7},
		{MonthBoundary, "1", 1},
		{MonthBoundary, "120", 120},
		{MonthBoundary, "120000", 120000},
	}
	for _, c := range cases {
		t.Run(string(c.align)+"/"+c.in, func(t *testing.T) {
			p, err := parsePeriod(c.align, c.in)
			require.NoError(t, err)
			assert.Equal(t, c.want, p.n)
			assert.Equal(t, c.align, p.align)
		})
	}
}

func TestParsePeriod_Rejected(t *testing.T) {
	cases := []struct {
		name, in string
		align    Alignment
		problem  string
	}{
		{"Zero", "0", DayBoundary, "greater than zero"},
		{"ZeroDuration", "0h", ActivatedAt, "greater than zero"},
		{"ZeroHourSuffix", "0h", HourBoundary, "greater than zero"},
		{"Negative", "-1", MonthBoundary, "plain whole number"},
		{"NegativeDuration", "-1h", ActivatedAt, "digits followed by"},
		{"Empty", "", ActivatedAt, "digits followed by"},
		{"EmptyBoundary", "", HourBoundary, "whole number of hours"},
		{"CompoundDuration", "1h30m", ActivatedAt, "digits followed by"},
		{"DayUnitForActivatedAt", "1d", ActivatedAt, "digits followed by"},
		{"BareNumberForActivatedAt", "60", ActivatedAt, "digits followed by"},
		{"DurationForDayBoundary", "24h", DayBoundary, "suffixes are not accepted for DayBoundary"},
		{"UndocumentedDaySuffix", "1d", DayBoundary, "suffixes are not accepted"},
		{"UndocumentedMonthSuffix", "1mo", MonthBoundary, "suffixes are not accepted"},
		{"MinutesForHourBoundary", "60m", HourBoundary, "whole number of hours"},
		{"OnlySuffix", "h", HourBoundary, "whole number of hours"},
		{"Spaces", " 1", MonthBoundary, "plain whole number"},
		{"Plus", "+1", DayBoundary, "plain whole number"},
		{"Decimal", "1.5h", ActivatedAt, "digits followed by"},
		{"TooLong", "120001", MonthBoundary, "must not exceed 120000"},
		{"HugeDigits", strings.Repeat("9", 40) + "s", ActivatedAt, "must not exceed"},
		{"NonASCIIDigit", "١", DayBoundary, "plain whole number"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := parsePeriod(c.align, c.in)
			require.Error(t, err)
			assert.True(t, errors.Is(err, ErrInvalidFee))
			assert.Contains(t, err.Error(), c.problem)
			assert.Contains(t, err.Error(), "spec.pricing.subscriptionFee.period")
			assert.Contains(t, err.Error(), string(c.align))
		})
	}
}

func TestFeeValidate_BadFields(t *testing.T) {
	cases := []struct {
		name  string
		fee   Fee
		field string
	}{
		{"NegativePrice", Fee{PriceMicros: -1, Period: "1h", Alignment: ActivatedAt}, "priceMicros"},
		{"NegativeMinPeriods", Fee{PriceMicros: 1, Period: "1h", Alignment: ActivatedAt, MinPeriods: -2}, "minPeriods"},
		{"UnknownAlignment", Fee{PriceMicros: 1, Period: "1", Alignment: "WeekBoundary"}, "tickAlignment"},
		{"EmptyAlignment", Fee{PriceMicros: 1, Period: "1"}, "tickAlignment"},
		{"ZeroPeriod", Fee{PriceMicros: 1, Period: "0", Alignment: HourBoundary}, "period"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.fee.Validate()
			require.ErrorIs(t, err, ErrInvalidFee)
			assert.Contains(t, err.Error(), "spec.pricing.subscriptionFee."+c.field)
		})
	}
	assert.NoError(t, Fee{PriceMicros: 0, Period: "1h", Alignment: ActivatedAt}.Validate(), "zero price is accepted and charges nothing")
}

func TestFeeValidate_LongValueTruncatedInMessage(t *testing.T) {
	err := Fee{PriceMicros: 1, Period: strings.Repeat("x", 5000), Alignment: DayBoundary}.Validate()
	require.Error(t, err)
	assert.Less(t, len(err.Error()), 400)
	assert.NotContains(t, err.Error(), "\n")
}

// A period of the right form that counts no unit is refused with
// ErrZeroPeriod (and ErrInvalidFee); ZeroPeriod tells it from every
// other refusal, so an Offering can say why it is refused.
func TestZeroPeriod_RightFormNoUnit(t *testing.T) {
	for _, c := range []struct {
		a      Alignment
		period string
		zero   bool
	}{
		{ActivatedAt, "0h", true}, {ActivatedAt, "000s", true}, {ActivatedAt, "0m", true},
		{HourBoundary, "0", true}, {HourBoundary, "00", true}, {HourBoundary, "0h", true},
		{DayBoundary, "0", true}, {MonthBoundary, "00", true},
		{ActivatedAt, "1h", false}, {ActivatedAt, "0", false}, {ActivatedAt, "h", false},
		{DayBoundary, "0h", false}, {MonthBoundary, "1", false}, {MonthBoundary, "", false},
	} {
		assert.Equal(t, c.zero, ZeroPeriod(c.a, c.period), "%s %q", c.a, c.period)
		err := Fee{PriceMicros: 1, Period: c.period, Alignment: c.a}.Validate()
		assert.Equal(t, c.zero, errors.Is(err, ErrZeroPeriod), "%s %q: %v", c.a, c.period, err)
		if c.zero {
			assert.ErrorIs(t, err, ErrInvalidFee)
			assert.Contains(t, err.Error(), "must be greater than zero")
		}
	}
}
