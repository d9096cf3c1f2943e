// Package decimal reads a number as JSON writes one (-12.50e3) into the
// digits and the place of its decimal point, so that two numbers can be
// compared, and an integer field's range checked, exactly and in time
// linear in their length: no number is ever expanded. math/big reads
// 1e999999999 by computing a billion digits, and a number of millions
// of digits in time quadratic in them.
package decimal

import (
	"strconv"
	"strings"
)

// Number is a decimal ±0.D × 10^Point, D its significant digits with no
// zero at either end; zero has no digits.
type Number struct {
	Neg    bool
	Digits string
	// Point is where the decimal point goes: the number of the digits
	// before it, negative when zeros follow the point first.
	Point int64
	// Huge is set when the exponent as written was beyond ±2^60: Point
	// then leaves it out, and HugeExp holds it, its sign and digits. Two
	// such numbers are equal only when they are written alike but for
	// zeros and the case of the e.
	Huge    bool
	HugeExp string
}

// limit bounds an exponent that is read as a number.
const limit = 1 << 60

// Parse reads s, a number as JSON writes it (also with a leading +, as
// YAML may). ok is false when s is not one.
func Parse(s string) (n Number, ok bool) {
	rest := s
	switch {
	case strings.HasPrefix(rest, "-"):
		n.Neg, rest = true, rest[1:]
	case strings.HasPrefix(rest, "+"):
		rest = rest[1:]
	}
	mant, exp, hasExp := strings.Cut(strings.ToLower(rest), "e")
	whole, frac, _ := strings.Cut(mant, ".")
	if !digitsOnly(whole) || !digitsOnly(frac) || whole+frac == "" {
		return Number{}, false
	}
	var e int64
	if hasExp {
		sign := int64(1)
		switch {
		case strings.HasPrefix(exp, "-"):
			sign, exp = -1, exp[1:]
		case strings.HasPrefix(exp, "+"):
			exp = exp[1:]
		}
		if exp == "" || !digitsOnly(exp) {
			return Number{}, false
		}
		exp = strings.TrimLeft(exp, "0")
		if v, err := strconv.ParseInt(exp, 10, 64); exp != "" && (err != nil || v > limit) {
			n.Huge, n.HugeExp = true, exp
			if sign < 0 {
				n.HugeExp = "-" + exp
			}
		} else if exp != "" {
			e = sign * v
		}
	}
	all := whole + frac
	lead := len(all) - len(strings.TrimLeft(all, "0"))
	n.Digits = strings.TrimRight(all[lead:], "0")
	if n.Digits == "" {
		return Number{Neg: n.Neg}, true // zero, whatever its exponent
	}
	n.Point = int64(len(whole)-lead) + e
	return n, true
}

func digitsOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Zero reports whether n is zero.
func (n Number) Zero() bool { return n.Digits == "" }

// Whole reports whether n is an integer.
func (n Number) Whole() bool {
	if n.Huge {
		return n.HugeExp[0] != '-'
	}
	return n.Zero() || int64(len(n.Digits)) <= n.Point
}

// Equal reports whether a and b, numbers as JSON writes them, are the
// same number; text that is no number is equal only to itself.
func Equal(a, b string) bool {
	if a == b {
		return true
	}
	x, okA := Parse(a)
	y, okB := Parse(b)
	if !okA || !okB {
		return false
	}
	if x.Zero() || y.Zero() {
		return x.Zero() && y.Zero()
	}
	return x == y
}

// Cmp compares the magnitude of n, an integer (Whole), with the integer
// written in the digits d without leading zeros: -1, 0 or 1.
func (n Number) Cmp(d string) int {
	if n.Zero() {
		if d == "0" || d == "" {
			return 0
		}
		return -1
	}
	if n.Huge || n.Point > int64(len(d)) {
		return 1
	}
	if n.Point < int64(len(d)) {
		return -1
	}
	// As many digits as d: n's, and zeros to the point.
	return strings.Compare(n.Digits+strings.Repeat("0", int(n.Point)-len(n.Digits)), d)
}

// Int is n's digits as an integer is written (n must be Whole and not
// Huge), with its sign.
func (n Number) Int() string {
	if n.Zero() {
		return "0"
	}
	s := n.Digits + strings.Repeat("0", int(n.Point)-len(n.Digits))
	if n.Neg {
		return "-" + s
	}
	return s
}
