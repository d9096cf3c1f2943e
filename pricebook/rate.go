package pricebook

import (
	"errors"
	"fmt"
	"math"
	"strings"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
)

// Field names one rate of spec.rates. The constants are in the fixed
// order rates are parsed in, which decides which failure a book reports
// when several rates are bad.
type Field int

// The rate fields, in parse order.
const (
	CPUHour Field = iota
	SpotCPUHour
	RAMGbHour
	SpotRAMGbHour
	PVGbHour
	GPUHour
	NetworkGiB
	// NumFields is the number of rate fields.
	NumFields
)

var fieldNames = [NumFields]string{
	"cpuHour", "spotCPUHour", "ramGbHour", "spotRAMGbHour", "pvGbHour", "gpuHour", "networkGiB",
}

// String is the field's JSON name, as messages quote it.
func (f Field) String() string {
	if f < 0 || f >= NumFields {
		return fmt.Sprintf("Field(%d)", int(f))
	}
	return fieldNames[f]
}

// RateValue returns the string written for f; "" when the block or the
// field is absent.
func RateValue(r *finopsv1.Rates, f Field) string {
	if r == nil {
		return ""
	}
	switch f {
	case CPUHour:
		return r.CPUHour
	case SpotCPUHour:
		return r.SpotCPUHour
	case RAMGbHour:
		return r.RAMGbHour
	case SpotRAMGbHour:
		return r.SpotRAMGbHour
	case PVGbHour:
		return r.PVGbHour
	case GPUHour:
		return r.GPUHour
	case NetworkGiB:
		return r.NetworkGiB
	}
	return ""
}

// MicrosPerUnit is how many micro-units make one currency unit.
const MicrosPerUnit = 1_000_000

// maxDecimals is the finest fraction a micro-unit can hold.
const maxDecimals = 6

// ErrRate marks every rate parsing failure, so callers can tell it apart
// with errors.Is.
var ErrRate = errors.New("rate cannot be parsed")

// RateError is a rate that cannot be expressed in micro-units. Its text
// is the message form the Ready condition carries.
type RateError struct {
	// Field is the rate's JSON name.
	Field string
	// Value is the string as written.
	Value string
	// Problem says what is wrong, in a few words.
	Problem string
}

// Error quotes the value whole, as written: it is the book's own text
// (rule pricebook/ready/parse-failed). Only the message's 1024-byte rule cuts it.
func (e *RateError) Error() string {
	return fmt.Sprintf("rate %q (%q): %s", e.Field, e.Value, e.Problem)
}

// Unwrap lets errors.Is(err, ErrRate) hold.
func (e *RateError) Unwrap() error { return ErrRate }

// ParseRate converts a decimal rate string to micro-units. The empty
// string is zero. Accepted: digits, optionally followed by a point and
// one to six digits. A sign, an exponent, a seventh decimal place (even a
// zero: money is never rounded) or a value above the int64 range is an
// error whose text names the problem; the caller adds the field.
func ParseRate(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	whole, frac, hasPoint := strings.Cut(s, ".")
	if problem := shapeProblem(s, whole, frac, hasPoint); problem != "" {
		return 0, errors.New(problem)
	}
	if len(frac) > maxDecimals {
		return 0, fmt.Errorf("more than %d decimal places cannot be held in micro-units", maxDecimals)
	}
	var v int64
	for i := 0; i < len(whole); i++ {
		d := int64(whole[i] - '0')
		if v > (math.MaxInt64-d)/10 {
			return 0, errTooLarge
		}
		v = v*10 + d
	}
	if v > math.MaxInt64/MicrosPerUnit {
		return 0, errTooLarge
	}
	v *= MicrosPerUnit
	var f int64
	for i := 0; i < maxDecimals; i++ {
		f *= 10
		if i < len(frac) {
			f += int64(frac[i] - '0')
		}
	}
	if v > math.MaxInt64-f {
		return 0, errTooLarge
	}
	return v + f, nil
}

var errTooLarge = errors.New("value is too large for int64 micro-units")

// shapeProblem names the first way s breaks the decimal pattern, or "".
func shapeProblem(s, whole, frac string, hasPoint bool) string {
	switch {
	case s[0] == '+' || s[0] == '-':
		return "a sign is not allowed"
	case strings.ContainsAny(s, "eE") && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r == '.' || r == 'e' || r == 'E' || r == '+' || r == '-')
	}):
		return "exponent notation is not allowed"
	case whole == "" || !allDigits(whole) || hasPoint && (frac == "" || !allDigits(frac)):
		return "not a plain decimal number (digits, optionally a point and more digits)"
	}
	return ""
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Parsed holds a book's rates in micro-units, indexed by Field.
type Parsed [NumFields]int64

// ParseRates parses every rate of r in the fixed field order and stops at
// the first failure, returned as a *RateError. A nil block is all zeros:
// an unset rate is zero, not excluded.
func ParseRates(r *finopsv1.Rates) (Parsed, error) {
	var p Parsed
	for f := Field(0); f < NumFields; f++ {
		v, err := ParseField(r, f)
		if err != nil {
			return Parsed{}, err
		}
		p[f] = v
	}
	return p, nil
}

// ParseField parses one rate of r, returning a *RateError on failure.
func ParseField(r *finopsv1.Rates, f Field) (int64, error) {
	s := RateValue(r, f)
	v, err := ParseRate(s)
	if err != nil {
		return 0, &RateError{Field: f.String(), Value: s, Problem: err.Error()}
	}
	return v, nil
}
