package redact

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestMessage_Cut(t *testing.T) {
	tests := []struct {
		name string
		in   string
		max  int
		want string
	}{
		{"FitsExactly", "abcdef", 6, "abcdef"},
		{"EllipsisCounted", "abcdefg", 6, "abc…"},
		{"RuneBoundary", "ab世界", 7, "ab…"},
		{"RuneBoundaryFits", "ab世界", 8, "ab世界"},
		{"TrailingSpaceDropped", "abc defgh", 7, "abc…"},
		{"DefaultLimit", strings.Repeat("x", 1025), 0, strings.Repeat("x", 1021) + "…"},
		{"DefaultLimitFits", strings.Repeat("x", 1024), 0, strings.Repeat("x", 1024)},
		{"NegativeMeansDefault", strings.Repeat("x", 1025), -5, strings.Repeat("x", 1021) + "…"},
		{"NoRoomForEllipsis", "abcdef", 2, ""},
		{"RoomOnlyForEllipsis", "abcdef", 3, "…"},
		{"NotInsidePlaceholder", "ab http://x/", 7, "ab…"},
		{"WholePlaceholderKept", "ab http://x/ cdefgh", 11, "ab [url]…"},
		{"CutMakingIPv4MovesBack", "at 1.2.3.456 now", 13, "at…"},
		{"CutMakingHostPortMovesBack", "at a.b:123456 now", 14, "at…"},
		{"CutAfterSecretKeyMovesBack", "password=hunter2", 12, "password…"},
		{"RedactionShrinksBelowLimit", "see https://" + strings.Repeat("x", 2000), 20, "see [url]"},
		{"BlanksRemovedBeforeMeasuring", "a" + strings.Repeat("\n", 2000) + "b", 5, "a b"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := messageMax(tc.in, tc.max)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, got, messageMax(got, tc.max), "not idempotent")
		})
	}
}

// Pathological shapes at 256 KiB and one 10 MiB message: no panic, the
// invariants hold. Cost is measured by the benchmarks, not here, so the
// race-enabled suite stays fast.
func TestMessage_HugeInput(t *testing.T) {
	const n = 256 << 10
	for _, in := range []string{
		strings.Repeat("status.conditions[2].reason ", 10<<20/28),
		strings.Repeat("a", n),
		strings.Repeat("10.0.0.1 ", n/9),
		strings.Repeat("\n", n),
		strings.Repeat("\xff", n),
		"http://" + strings.Repeat("x", n) + " tail",
		strings.Repeat("a@", n/2),
		strings.Repeat("password=", n/9),
		strings.Repeat("1.", n/2),
		strings.Repeat(":", n),
		strings.Repeat("::1", n/3),
		strings.Repeat("[url]", n/5),
		"a://b" + strings.Repeat(" x", n/2),
	} {
		got := Message(in)
		assert.LessOrEqual(t, len(got), DefaultMaxBytes)
		assert.True(t, utf8.ValidString(got))
		assert.Equal(t, got, Message(got))
	}
}
