package redact

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFit_HidesNothing(t *testing.T) {
	own := `spec.chat.channel: "0123456789abcdef0123456789abcdef01"  is  kept, token: hunter2 at 10.0.0.1:443`
	assert.Equal(t, own, Fit(own, 0), "Fit is for text already judged: nothing is hidden, spaces are kept")
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = Fit(own, 0) }))
}

func TestFit_OneLineValidUTF8(t *testing.T) {
	got := Fit("a\nb\u2028c\x00d\xffe", 0)
	assert.Equal(t, "a b c d\uFFFDe", got)
	assert.NoError(t, Check(got, 0))
}

func TestFit_CutsAtTheLimitOnly(t *testing.T) {
	s := strings.Repeat("é", 600) // 1200 bytes
	got := Fit(s, 0)
	assert.LessOrEqual(t, len(got), DefaultMaxBytes)
	assert.True(t, strings.HasSuffix(got, ellipsis))
	assert.NoError(t, Check(got, 0))
	assert.Equal(t, DefaultMaxBytes-1, len(got), "cut on a rune boundary: 510 runes of 2 bytes and the 3-byte ellipsis")

	exact := strings.Repeat("x", DefaultMaxBytes)
	assert.Equal(t, exact, Fit(exact, 0), "1024 bytes is not over the limit")
	assert.Equal(t, strings.Repeat("x", DefaultMaxBytes-3)+ellipsis, Fit(exact+"y", 0))
}

func TestFit_NeverCutsInsideAPlaceholder(t *testing.T) {
	s := strings.Repeat("x", 10) + PlaceholderSecret + strings.Repeat("y", 10)
	got := Fit(s, 14)
	assert.Equal(t, strings.Repeat("x", 10)+ellipsis, got)
	assert.Equal(t, "", Fit("abcdef", 2))
}

func FuzzFit(f *testing.F) {
	f.Add("a\nb", 10)
	f.Add(strings.Repeat("é", 600), 0)
	f.Fuzz(func(t *testing.T, s string, max int) {
		max %= 4096
		got := Fit(s, max)
		limit := max
		if limit <= 0 {
			limit = DefaultMaxBytes
		}
		if limit >= len(ellipsis) {
			if err := Check(got, limit); err != nil {
				t.Fatalf("Fit(%q, %d) = %q: %v", s, max, got, err)
			}
		}
		if Fit(got, max) != got {
			t.Fatalf("Fit is not a fixed point on %q", got)
		}
	})
}
