package clock

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"
)

func TestBackoff_Wait(t *testing.T) {
	s := time.Second
	tests := []struct {
		name     string
		b        Backoff
		failures int
		want     time.Duration
	}{
		{"NoFailureNoWait", Backoff{First: 10 * s, Cap: 5 * time.Minute}, 0, 0},
		{"NegativeFailuresNoWait", Backoff{First: 10 * s, Cap: 5 * time.Minute}, -3, 0},
		{"FirstFailureWaitsFirst", Backoff{First: 10 * s, Cap: 5 * time.Minute}, 1, 10 * s},
		{"SecondFailureDoubles", Backoff{First: 10 * s, Cap: 5 * time.Minute}, 2, 20 * s},
		{"FifthFailure", Backoff{First: 10 * s, Cap: 5 * time.Minute}, 5, 160 * s},
		{"SixthFailureCapped", Backoff{First: 10 * s, Cap: 5 * time.Minute}, 6, 5 * time.Minute},
		{"HugeCountCapped", Backoff{First: 10 * s, Cap: 5 * time.Minute}, 1_000_000_000, 5 * time.Minute},
		{"FactorThree", Backoff{First: s, Cap: time.Hour, Factor: 3}, 3, 9 * s},
		{"FactorOneConstant", Backoff{First: 7 * s, Cap: time.Hour, Factor: 1}, 50, 7 * s},
		{"ZeroFactorMeansTwo", Backoff{First: s, Cap: time.Hour}, 4, 8 * s},
		{"NegativeFactorMeansTwo", Backoff{First: s, Cap: time.Hour, Factor: -5}, 4, 8 * s},
		{"ZeroCapSaturates", Backoff{First: s}, 1_000_000_000, math.MaxInt64},
		{"ZeroCapGrows", Backoff{First: s}, 11, 1024 * s},
		{"FirstAboveCapClamped", Backoff{First: time.Hour, Cap: time.Minute}, 1, time.Minute},
		{"ZeroFirstStaysZero", Backoff{Cap: time.Minute}, 9, 0},
		{"NegativeFirstIsZero", Backoff{First: -s, Cap: time.Minute}, 3, 0},
		{"NegativeCapUnbounded", Backoff{First: s, Cap: -1}, 2, 2 * s},
		{"HugeFactorSaturatesAtCap", Backoff{First: s, Cap: time.Hour, Factor: math.MaxInt}, 2, time.Hour},
		{"HugeFactorNoCapSaturates", Backoff{First: s, Factor: math.MaxInt}, 3, math.MaxInt64},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.b.Wait(tc.failures))
		})
	}
}

func TestBackoff_Validate(t *testing.T) {
	tests := []struct {
		name    string
		b       Backoff
		wantErr string
	}{
		{"BindingDefaultsValid", Backoff{First: 10 * time.Second, Cap: 5 * time.Minute}, ""},
		{"ZeroValueValid", Backoff{}, ""},
		{"NegativeFirst", Backoff{First: -1}, "first wait -1ns is negative"},
		{"NegativeCap", Backoff{Cap: -time.Second}, "cap -1s is negative"},
		{"NegativeFactor", Backoff{Factor: -2}, "factor -2 is negative"},
		{"FirstAboveCap", Backoff{First: time.Hour, Cap: time.Minute}, "first wait 1h0m0s is above the cap 1m0s"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.b.Validate()
			if tc.wantErr == "" {
				assert.NoError(t, err)
				return
			}
			assert.ErrorContains(t, err, tc.wantErr)
		})
	}
}

func genBackoff(t *rapid.T) Backoff {
	return Backoff{
		First:  time.Duration(rapid.Int64Range(-10, math.MaxInt64).Draw(t, "first")),
		Cap:    time.Duration(rapid.Int64Range(-10, math.MaxInt64).Draw(t, "cap")),
		Factor: rapid.IntRange(-3, math.MaxInt).Draw(t, "factor"),
	}
}

func TestBackoff_Properties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := genBackoff(t)
		n := rapid.IntRange(-5, 1_000_000_000).Draw(t, "failures")
		w := b.Wait(n)
		if w < 0 {
			t.Fatalf("Wait(%d) = %v is negative", n, w)
		}
		if b.Cap > 0 && w > b.Cap {
			t.Fatalf("Wait(%d) = %v above cap %v", n, w, b.Cap)
		}
		if next := b.Wait(n + 1); next < w {
			t.Fatalf("not monotone: Wait(%d) = %v > Wait(%d) = %v", n, w, n+1, next)
		}
		if n <= 0 && w != 0 {
			t.Fatalf("Wait(%d) = %v, want 0", n, w)
		}
		if n == 1 && b.First >= 0 && (b.Cap <= 0 || b.First <= b.Cap) && w != b.First {
			t.Fatalf("Wait(1) = %v, want First %v", w, b.First)
		}
		if w != b.Wait(n) {
			t.Fatalf("Wait is not pure")
		}
	})
}

// A schedule whose steps do not saturate must multiply exactly by Factor.
func TestBackoff_PropertyExactGrowthBelowCap(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := Backoff{
			First:  time.Duration(rapid.Int64Range(1, 1<<20).Draw(t, "first")),
			Factor: rapid.IntRange(1, 16).Draw(t, "factor"),
		}
		n := rapid.IntRange(1, 10).Draw(t, "failures")
		want := b.First
		for range n - 1 {
			want *= time.Duration(b.Factor)
		}
		if got := b.Wait(n); got != want {
			t.Fatalf("Wait(%d) = %v, want %v", n, got, want)
		}
	})
}

func BenchmarkBackoff_Wait(b *testing.B) {
	bo := Backoff{First: 10 * time.Second, Cap: 5 * time.Minute}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_ = bo.Wait(i % 64)
	}
}
