package scenario

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

const exactNumberFile = `
name: numbers are compared exactly
system: finops
now: "2026-11-30T10:00:00Z"
expect:
  - kind: Subscription
    namespace: shop
    name: acme
    status: {costs: {totalMicros: 9223372036854775807, rate: 1000, half: 0.5}}
`

func TestCheck_NumbersAreExactNearInt64Max(t *testing.T) {
	f := parse(t, exactNumberFile)
	out := func(status string) []Outcome {
		return []Outcome{{Kind: "Subscription", Namespace: "shop", Name: "acme", Status: []byte(status)}}
	}

	assert.Empty(t, f.Check(out(`{"costs":{"totalMicros":9223372036854775807,"rate":1000,"half":0.5}}`)))
	// The same values written another way are the same numbers.
	assert.Empty(t, f.Check(out(`{"costs":{"totalMicros":9223372036854775807,"rate":1e3,"half":0.50}}`)))

	// One less near the int64 limit is a different number; through a
	// float64 both would read 9223372036854775808.
	d := f.Check(out(`{"costs":{"totalMicros":9223372036854775806,"rate":1000,"half":0.5}}`))
	assert.Contains(t, d, "9223372036854775806")
	assert.Contains(t, d, "9223372036854775807")

	assert.NotEmpty(t, f.Check(out(`{"costs":{"totalMicros":9223372036854775807,"rate":1001,"half":0.5}}`)))
	assert.NotEmpty(t, f.Check(out(`{"costs":{"totalMicros":9223372036854775807,"rate":1000,"half":0.5000001}}`)))
	// A number is not its text.
	assert.NotEmpty(t, f.Check(out(`{"costs":{"totalMicros":"9223372036854775807","rate":1000,"half":0.5}}`)))
}

// An expected number of millions of digits, or with an exponent no
// machine number holds, is compared in time linear in its length and
// never expanded: math/big read 1e999999999 by computing its billion
// digits.
func TestCheck_HugeNumbersAreComparedWithoutExpanding(t *testing.T) {
	f := parse(t, exactNumberFile)
	out := func(status string) []Outcome {
		return []Outcome{{Kind: "Subscription", Namespace: "shop", Name: "acme", Status: []byte(status)}}
	}
	start := time.Now()
	assert.NotEmpty(t, f.Check(out(`{"costs":{"totalMicros":1e999999999,"rate":1000,"half":0.5}}`)))
	assert.NotEmpty(t, f.Check(out(`{"costs":{"totalMicros":9223372036854775807,"rate":1`+strings.Repeat("0", 2_000_000)+`,"half":0.5}}`)))
	assert.Empty(t, f.Check(out(`{"costs":{"totalMicros":9223372036854775807,"rate":1000e0000000000000000000000,"half":5e-1}}`)))
	assert.Less(t, time.Since(start), 5*time.Second)
}
