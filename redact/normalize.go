package redact

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// blank reports whether a non-ASCII rune becomes a space: controls, every
// Unicode space and line or paragraph separator, and invisible format
// characters (bidi overrides, zero-width joiners), which could otherwise
// reorder the text a reader sees or split a secret so no pattern sees it.
func blank(r rune) bool {
	return unicode.IsControl(r) || unicode.IsSpace(r) || unicode.Is(unicode.Cf, r)
}

// isNormal reports whether normalize(s) == s, without allocating.
func isNormal(s string) bool {
	if s == "" {
		return true
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	prevSpace := false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return false
			}
			if c == ' ' {
				if prevSpace {
					return false
				}
				prevSpace = true
			} else {
				prevSpace = false
			}
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && w == 1) || blank(r) || fullWidth(r) {
			return false
		}
		prevSpace = false
		i += w
	}
	return true
}

// normalize makes s one line of valid UTF-8: each run of invalid bytes
// becomes one U+FFFD, each run of blanks one space, and the ends are
// trimmed. It returns s itself when nothing changes.
func normalize(s string) string {
	if isNormal(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	pendingSpace := false
	badRun := false
	for i := 0; i < len(s); {
		c := s[i]
		var r rune
		w := 1
		if c < utf8.RuneSelf {
			r = rune(c)
		} else {
			r, w = utf8.DecodeRuneInString(s[i:])
		}
		i += w
		switch {
		case r == utf8.RuneError && w == 1:
			if badRun {
				continue
			}
			badRun = true
			r = utf8.RuneError
		case r == ' ' || (r < utf8.RuneSelf && (r < 0x20 || r == 0x7f)) || (r >= utf8.RuneSelf && blank(r)):
			pendingSpace = b.Len() > 0
			badRun = false
			continue
		case fullWidth(r):
			r -= fullWidthOffset
			badRun = false
		default:
			badRun = false
		}
		if pendingSpace {
			b.WriteByte(' ')
			pendingSpace = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Full-width forms of ASCII (U+FF01 to U+FF5E) are folded to ASCII, as
// NFKC folds them, so that "１０．０．０．７:８４４３" is seen, and hidden,
// as the address it is.
const fullWidthOffset = 0xFF01 - '!'

func fullWidth(r rune) bool { return r >= 0xFF01 && r <= 0xFF5E }
