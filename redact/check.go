package redact

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// Errors Check wraps, for errors.Is. Their texts never quote the message,
// which may itself be what must not be shown.
var (
	// ErrTooLong means the message has more bytes than allowed.
	ErrTooLong = errors.New("message too long")
	// ErrInvalidUTF8 means the message is not valid UTF-8.
	ErrInvalidUTF8 = errors.New("message is not valid UTF-8")
	// ErrNotOneLine means the message holds a control character or a
	// Unicode line or paragraph separator.
	ErrNotOneLine = errors.New("message is not one line")
)

// Check reports whether s obeys the message rule: at most maxBytes bytes
// (zero or negative means DefaultMaxBytes), valid UTF-8, one line (no
// control characters, no line or paragraph separators). It does not look
// for things to hide; use Clean for that. Both a length problem and the
// first content problem are reported.
func Check(s string, maxBytes int) error {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	var errs []error
	if len(s) > maxBytes {
		errs = append(errs, fmt.Errorf("%w: %d bytes, at most %d", ErrTooLong, len(s), maxBytes))
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w == 1 {
			errs = append(errs, fmt.Errorf("%w: invalid byte at offset %d", ErrInvalidUTF8, i))
			break
		}
		if r < 0x20 || (0x7f <= r && r <= 0x9f) || r == '\u2028' || r == '\u2029' {
			errs = append(errs, fmt.Errorf("%w: character %U at offset %d", ErrNotOneLine, r, i))
			break
		}
		i += w
	}
	return errors.Join(errs...)
}
