package binding

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation"
	"pgregory.net/rapid"
)

// The DNS-1123 checks decide exactly as apimachinery's validation does:
// it is the rule, these are its allocation-free form.
func TestDNSChecks_AgreeWithApimachinery(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.OneOf(
			rapid.StringMatching(`[a-z0-9.\-]{0,70}`),
			rapid.StringMatching(`([a-z0-9]([a-z0-9\-]{0,61}[a-z0-9])?\.){0,5}[a-z0-9]{1,63}`),
			rapid.StringMatching(`[a-zA-Z0-9.\-_ é]{0,12}`),
			rapid.StringOfN(rapid.SampledFrom([]rune("a-.")), 250, 256, -1),
			rapid.StringOfN(rapid.SampledFrom([]rune("ab")), 60, 66, -1),
			// Valid labels joined up to around the 253-byte bound.
			rapid.Custom(func(t *rapid.T) string {
				s := strings.Repeat(strings.Repeat("a", 61)+".", 5)[:rapid.IntRange(250, 256).Draw(t, "n")]
				return strings.TrimSuffix(s, ".") + "b"
			}),
		).Draw(t, "s")
		if got, want := isDNSLabel(s), len(validation.IsDNS1123Label(s)) == 0; got != want {
			t.Fatalf("isDNSLabel(%q) = %v, apimachinery says %v", s, got, want)
		}
		if got, want := isDNSSubdomain(s), len(validation.IsDNS1123Subdomain(s)) == 0; got != want {
			t.Fatalf("isDNSSubdomain(%q) = %v, apimachinery says %v", s, got, want)
		}
	})
}
