package exacttest

import (
	"strings"
	"testing"
)

// The two values, as a manifest writes them.
const (
	// Above53 is 2^53+1: through a float64 its last digit changes.
	Above53 = "9007199254740993"
	// Int64Max is 2^63-1: through a float64 it becomes 2^63, which
	// overflows an int64.
	Int64Max = "9223372036854775807"
)

// rounded are the texts a float64 makes of the two values, in decimal
// and in exponent form.
var rounded = []string{"9007199254740992", "-9223372036854775808", "9223372036854775808", "e+18", "e+15"}

// NotRounded fails t for each text in out that shows one of the values
// went through a float64.
func NotRounded(t testing.TB, out string) {
	t.Helper()
	for _, bad := range rounded {
		if strings.Contains(out, bad) {
			t.Errorf("output holds %s, a float64's rounding:\n%s", bad, out)
		}
	}
}
