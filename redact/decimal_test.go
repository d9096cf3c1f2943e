package redact

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// naiveDecimalIPv4 is findDecimalIPv4 without the eight-byte skip: every
// run of digits is looked at, and judged by the same decimalAddressAt.
func naiveDecimalIPv4(s string) []span {
	var out []span
	for i := 0; i < len(s); {
		if !isDigit(s[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if decimalAddressAt(s, i, j) {
			out = append(out, span{i, portEnd(s, j), kindAddress})
		}
		i = j
	}
	return out
}

// The skip finds exactly the runs a byte-by-byte scan finds.
func TestDecimalIPv4_PropertySkipFindsWhatAFullScanFinds(t *testing.T) {
	pieces := []string{"host ", "addr=", "//", "@", "dial tcp ", "167772167", "4294967295", "16777215", "1", "12",
		"1234567", "0", ".", ":80", " ", "x", "generation ", "99999999"}
	rapid.Check(t, func(t *rapid.T) {
		var s string
		for _, p := range rapid.SliceOfN(rapid.SampledFrom(pieces), 0, 30).Draw(t, "pieces") {
			s += p
		}
		if got, want := findDecimalIPv4(s, nil), naiveDecimalIPv4(s); !slices.Equal(got, want) {
			t.Fatalf("%q: skip finds %v, full scan %v", s, got, want)
		}
	})
}
