package redact_test

import (
	"testing"
	"unicode/utf8"

	"github.com/condengine/condengine/redact"
)

func TestClip(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		max  int
		want string
	}{
		{"fits", "abc", 3, "abc"},
		{"cut", "abcdef", 5, "ab…"},
		{"no room for ellipsis", "abcdef", 2, ""},
		{"never splits a rune", "aé€z", 6, "aé…"},
		{"rune at the cut moves back", "a€€", 5, "a…"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := redact.Clip(tc.in, tc.max)
			if got != tc.want {
				t.Fatalf("Clip(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
			}
			if len(got) > tc.max || !utf8.ValidString(got) {
				t.Fatalf("Clip(%q, %d) = %q: over the bound or invalid UTF-8", tc.in, tc.max, got)
			}
		})
	}
}
