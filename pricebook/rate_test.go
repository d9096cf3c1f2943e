package pricebook_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/pricebook"
)

func TestParseRate_MicroUnits(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{
		{"", 0},
		{"0", 0},
		{"0.031", 31_000},
		{"1.8", 1_800_000},
		{"1.80", 1_800_000},
		{"0.000001", 1},
		{"007", 7_000_000},
		{"9223372036854.775807", math.MaxInt64},
		{"9223372036854", 9_223_372_036_854_000_000},
	} {
		got, err := pricebook.ParseRate(tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
}

func TestParseRate_Rejects(t *testing.T) {
	for _, tc := range []struct {
		name, in, problem string
	}{
		{"Sign", "-1", "sign"},
		{"PlusSign", "+0.5", "sign"},
		{"Exponent", "3e-2", "exponent"},
		{"ExponentUpper", "1E5", "exponent"},
		{"SevenDecimals", "0.1234567", "more than 6 decimal places"},
		{"SevenDecimalsTrailingZero", "1.0000000", "more than 6 decimal places"},
		{"ThirtyDigits", "123456789012345678901234567890", "too large"},
		{"JustAboveInt64", "9223372036854.775808", "too large"},
		{"WholeAboveInt64Micros", "9223372036855", "too large"},
		{"TrailingPoint", "1.", "not a plain decimal"},
		{"LeadingPoint", ".5", "not a plain decimal"},
		{"Comma", "1,000", "not a plain decimal"},
		{"Currency", "€1", "not a plain decimal"},
		{"Space", " 1", "not a plain decimal"},
		{"Hex", "0x10", "not a plain decimal"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := pricebook.ParseRate(tc.in)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.problem)
		})
	}
}

func TestParseRates_FirstFailureInFieldOrder(t *testing.T) {
	// gpuHour comes after ramGbHour in the fixed order, so ramGbHour is
	// the one reported although both are bad.
	_, err := pricebook.ParseRates(&finopsv1.Rates{GPUHour: "-1", RAMGbHour: "1e3", NetworkGiB: "x"})
	var re *pricebook.RateError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, "ramGbHour", re.Field)
	assert.True(t, errors.Is(err, pricebook.ErrRate))
	assert.Equal(t, `rate "ramGbHour" ("1e3"): exponent notation is not allowed`, err.Error())
}

func TestParseRates_MissingBlockIsZero(t *testing.T) {
	p, err := pricebook.ParseRates(nil)
	require.NoError(t, err)
	assert.Equal(t, pricebook.Parsed{}, p)
}

// The value is the book's own text, quoted whole;
// only the message's 1024-byte rule cuts it.
func TestRateError_ValueQuotedWhole(t *testing.T) {
	long := strings.Repeat("9", 5000)
	_, err := pricebook.ParseRates(&finopsv1.Rates{CPUHour: long})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `("`+long+`")`)

	m := conditions.FitMessage(err.Error())
	assert.Len(t, m, 1024-3+len("…"))
	assert.True(t, strings.HasPrefix(m, `rate "cpuHour" ("999`))
	assert.True(t, strings.HasSuffix(m, "999…"))
}

// Own text: a rate of 40 digits is a run redaction would
// hide, but it is the book's own text and shows as written.
func TestRateError_OwnDigitsNotRedacted(t *testing.T) {
	forty := strings.Repeat("1234567890", 4)
	_, err := pricebook.ParseRates(&finopsv1.Rates{GPUHour: forty})
	require.Error(t, err)
	assert.Equal(t, `rate "gpuHour" ("`+forty+`"): value is too large for int64 micro-units`, conditions.FitMessage(err.Error()))
}

func TestField_String(t *testing.T) {
	var names []string
	for f := pricebook.Field(0); f < pricebook.NumFields; f++ {
		names = append(names, f.String())
	}
	assert.Equal(t, []string{"cpuHour", "spotCPUHour", "ramGbHour", "spotRAMGbHour", "pvGbHour", "gpuHour", "networkGiB"}, names)
	assert.Equal(t, "Field(9)", pricebook.Field(9).String())
}

func FuzzParseRate(f *testing.F) {
	for _, s := range []string{"", "0", "0.031", "1.80", "-1", "3e-2", "0.1234567", "123456789012345678901234567890",
		"9223372036854.775807", "9223372036854.775808", "1.", ".5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := pricebook.ParseRate(s)
		if err != nil {
			if v != 0 {
				t.Fatalf("%q: error with value %d", s, v)
			}
			return
		}
		if v < 0 {
			t.Fatalf("%q parsed to negative %d", s, v)
		}
		// The whole part and the fraction parse separately to the same
		// total: no digit is lost or rounded.
		whole, frac, hasPoint := strings.Cut(s, ".")
		w, err := pricebook.ParseRate(whole)
		if s != "" && err != nil {
			t.Fatalf("%q parsed but its whole part %q did not: %v", s, whole, err)
		}
		var fr int64
		if hasPoint {
			if fr, err = pricebook.ParseRate("0." + frac); err != nil {
				t.Fatalf("%q parsed but its fraction did not: %v", s, err)
			}
		}
		if w+fr != v {
			t.Fatalf("%q: %d != %d + %d", s, v, w, fr)
		}
	})
}
