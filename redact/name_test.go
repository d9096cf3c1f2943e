package redact

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Names the reader may see are shown as written; a string that cannot be
// a Kubernetes object name is free text and redacted.
func TestName(t *testing.T) {
	long := strings.Repeat("n", maxNameLen)
	for _, tc := range []struct{ name, in, want string }{
		// Shown as written.
		{"HexName", "0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdef"},
		{"AddressInName", "x-10.0.0.7", "x-10.0.0.7"},
		{"NamespacedAddressInName", "team-a/backup-10.0.0.7", "team-a/backup-10.0.0.7"},
		{"NamespacedHexName", "team-a/0123456789abcdef0123456789abcdef", "team-a/0123456789abcdef0123456789abcdef"},
		{"TokenShapedName", "glpat-0123456789abcdefghij", "glpat-0123456789abcdefghij"},
		{"LongestName", long + "/" + long, long + "/" + long},
		// Redacted as free text.
		{"Space", "x 10.0.0.7", "x [address]"},
		{"Port", "api.example.com:443", "[address]"},
		{"UpperCase", "AKIAIOSFODNN7EXAMPLE", "[secret]"},
		{"KeyValue", "a/password=x", "a/password=[secret]"},
		{"TwoSlashes", "a/b/10.0.0.7", "a/b/[address]"},
		{"LeadingSlash", "/10.0.0.7", "/[address]"},
		{"TrailingSlash", "10.0.0.7/", "[address]/"},
		{"TooLong", long + "-10.0.0.7", long + "-[address]"},
		{"LineBreak", "x-10.0.0.7\n", "x-[address]"},
		{"Empty", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, Name(tc.in))
		})
	}
}
