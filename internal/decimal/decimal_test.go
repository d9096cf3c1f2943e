package decimal

import (
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"
)

// genNumber draws a number as JSON or YAML may write it: a sign, digits
// with leading and trailing zeros, a fraction, an exponent.
func genNumber(t *rapid.T, label string) string {
	var b strings.Builder
	b.WriteString(rapid.SampledFrom([]string{"", "-", "+"}).Draw(t, label+" sign"))
	digits := rapid.StringMatching(`[0-9]{1,6}`)
	b.WriteString(rapid.SampledFrom([]string{"", "0", "00"}).Draw(t, label+" lead") + digits.Draw(t, label+" whole"))
	if rapid.Bool().Draw(t, label+" point") {
		b.WriteString("." + digits.Draw(t, label+" frac") + rapid.SampledFrom([]string{"", "0", "000"}).Draw(t, label+" trail"))
	}
	if rapid.Bool().Draw(t, label+" exp") {
		b.WriteString(rapid.SampledFrom([]string{"e", "E", "e+", "e-", "E-"}).Draw(t, label+" e") + rapid.StringMatching(`0?[0-9]{1,2}`).Draw(t, label+" exp digits"))
	}
	return b.String()
}

func rat(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(strings.TrimPrefix(s, "+"))
	if !ok {
		panic(s)
	}
	return r
}

// Equal agrees with math/big on every number small enough for it, and
// Whole, Cmp and Int with big.Rat's reading.
func TestNumber_AgreesWithMathBig(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genNumber(t, "a")
		b := a
		if rapid.Bool().Draw(t, "other") {
			b = genNumber(t, "b")
		}
		ra, rb := rat(a), rat(b)
		if got, want := Equal(a, b), ra.Cmp(rb) == 0; got != want {
			t.Fatalf("Equal(%s, %s) = %v, want %v", a, b, got, want)
		}
		n, ok := Parse(a)
		if !ok {
			t.Fatalf("%s not read", a)
		}
		if got, want := n.Whole(), ra.IsInt(); got != want {
			t.Fatalf("Whole(%s) = %v, want %v", a, got, want)
		}
		if !n.Whole() {
			return
		}
		if got, want := n.Int(), ra.Num().String(); got != want && !(want == "0" && got == "0") {
			t.Fatalf("Int(%s) = %s, want %s", a, got, want)
		}
		d := rapid.StringMatching(`[1-9][0-9]{0,8}`).Draw(t, "d")
		abs := new(big.Int).Abs(ra.Num())
		want := abs.Cmp(new(big.Rat).SetFrac(rat(d).Num(), big.NewInt(1)).Num())
		if got := n.Cmp(d); got != want {
			t.Fatalf("Cmp(%s, %s) = %d, want %d", a, d, got, want)
		}
	})
}

func TestParse_RefusesWhatIsNoNumber(t *testing.T) {
	for _, s := range []string{"", "-", "+", ".", "e5", "1e", "1e+", "1.2.3", "1e5e5", "0x10", "1_000", "1,5", " 1", "--1", "1e-x", "abc"} {
		_, ok := Parse(s)
		assert.False(t, ok, "%q", s)
	}
	for _, s := range []string{"0", "-0", "5.", ".5", "1E9", "+3"} {
		_, ok := Parse(s)
		assert.True(t, ok, "%q", s)
	}
}

// Exponents beyond what an int64 counts are compared by their digits,
// never expanded; zero is zero whatever its exponent or sign.
func TestNumber_HugeExponents(t *testing.T) {
	huge := "1e" + strings.Repeat("9", 30)
	n, ok := Parse(huge)
	assert.True(t, ok)
	assert.True(t, n.Huge)
	assert.True(t, n.Whole())
	assert.Equal(t, 1, n.Cmp("9223372036854775807"))
	tiny, _ := Parse("1e-" + strings.Repeat("9", 30))
	assert.False(t, tiny.Whole())
	assert.True(t, Equal(huge, "10e"+strings.Repeat("9", 30)) == false, "a huge exponent is compared as written")
	assert.True(t, Equal(huge, "1e0"+strings.Repeat("9", 30)))
	assert.True(t, Equal("0e-"+strings.Repeat("9", 30), "-0.000"))
	assert.False(t, Equal("0", "1e-"+strings.Repeat("9", 30)))
	big, _ := Parse("1e1152921504606846977") // 2^60+1
	assert.True(t, big.Huge)
	notBig, _ := Parse("1e1152921504606846976")
	assert.False(t, notBig.Huge)
	assert.Equal(t, 1, notBig.Cmp("9223372036854775807"))
}

// Millions of digits are read in time linear in them: 4 million digits
// within a second (math/big's reading took 22.8 s).
func TestParse_MillionsOfDigitsInLinearTime(t *testing.T) {
	s := "1" + strings.Repeat("0", 4_000_000)
	start := time.Now()
	n, ok := Parse(s)
	assert.True(t, ok)
	assert.True(t, n.Whole())
	assert.Equal(t, 1, n.Cmp("9223372036854775807"))
	assert.False(t, Equal(s, s+"1"))
	assert.True(t, Equal(s, "1e4000000"))
	assert.Less(t, time.Since(start), time.Second, fmt.Sprintf("%d digits", len(s)))
}
