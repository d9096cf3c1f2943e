package redact_test

import (
	"testing"
	"unicode/utf8"

	"github.com/condengine/condengine/redact"
)

// Clip keeps text that fits, never splits a rune, counts the ellipsis
// and never exceeds the bound.
func TestClip(t *testing.T) {
	clips := func(in string, max int, want string) {
		t.Helper()
		got := redact.Clip(in, max)
		if got != want || len(got) > max || !utf8.ValidString(got) {
			t.Errorf("Clip(%q, %d) = %q, want %q within %d bytes of valid UTF-8", in, max, got, want, max)
		}
	}
	clips("abc", 3, "abc")
	clips("abcdef", 5, "ab…")
	clips("abcdef", 2, "") // no room for the ellipsis
	clips("aé€z", 6, "aé…")
	clips("a€€", 5, "a…") // the rune at the cut moves back
}
