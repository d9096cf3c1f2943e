package redact

import (
	"strings"
	"unicode/utf8"
)

// Fit returns s shaped to the message rule that Check tests, hiding
// nothing: each character that would break the line (a control
// character, a line or paragraph separator) becomes a space, each invalid
// byte U+FFFD, and a result over maxBytes (zero or negative means
// DefaultMaxBytes) is cut on a rune boundary, never inside a placeholder,
// to end in "…". Every other byte is kept as it is, runs of spaces
// included.
//
// Fit is for a message assembled by the engine from the object's own text
// and parts from elsewhere that the caller has already passed through
// Message each on its own: the object's own namespace, name and values are
// shown whole, since they are never a leak. A string that already
// obeys the rule is returned as is, without allocating.
func Fit(s string, maxBytes int) string {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	if !oneLine(s) {
		var b strings.Builder
		b.Grow(len(s))
		for i := 0; i < len(s); {
			r, w := utf8.DecodeRuneInString(s[i:])
			i += w
			switch {
			case r == utf8.RuneError && w == 1:
				b.WriteRune(utf8.RuneError)
			case breaksLine(r):
				b.WriteByte(' ')
			default:
				b.WriteRune(r)
			}
		}
		s = b.String()
	}
	if len(s) <= maxBytes {
		return s
	}
	if maxBytes < len(ellipsis) {
		return ""
	}
	return s[:outsidePlaceholder(s, runeStart(s, maxBytes-len(ellipsis)))] + ellipsis
}

// breaksLine reports whether r may not appear in a one-line message.
func breaksLine(r rune) bool {
	return r < 0x20 || (0x7f <= r && r <= 0x9f) || r == '\u2028' || r == '\u2029'
}

// oneLine reports whether s is valid UTF-8 without a character that
// breaks the line.
func oneLine(s string) bool {
	for i := 0; i < len(s); {
		if c := s[i]; c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && w == 1) || breaksLine(r) {
			return false
		}
		i += w
	}
	return true
}
