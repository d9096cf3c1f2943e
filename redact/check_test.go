package redact

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name    string
		s       string
		max     int
		wantErr []error
		wantMsg string
	}{
		{"EmptyOK", "", 0, nil, ""},
		{"OneLineOK", "spec.chat.channel: \"x y\" contains white space", 0, nil, ""},
		{"UnicodeOK", "Grüße … 世界", 0, nil, ""},
		{"ExactlyDefaultOK", strings.Repeat("x", DefaultMaxBytes), 0, nil, ""},
		{"OverDefault", strings.Repeat("x", DefaultMaxBytes+1), 0, []error{ErrTooLong}, "1025 bytes, at most 1024"},
		{"NegativeMeansDefault", strings.Repeat("x", DefaultMaxBytes+1), -1, []error{ErrTooLong}, "at most 1024"},
		{"OverCustom", "abcd", 3, []error{ErrTooLong}, "4 bytes, at most 3"},
		{"Newline", "a\nb", 0, []error{ErrNotOneLine}, "U+000A at offset 1"},
		{"CarriageReturn", "a\rb", 0, []error{ErrNotOneLine}, "U+000D"},
		{"Tab", "a\tb", 0, []error{ErrNotOneLine}, "U+0009"},
		{"Delete", "a\x7fb", 0, []error{ErrNotOneLine}, "U+007F"},
		{"NextLine", "a\u0085b", 0, []error{ErrNotOneLine}, "U+0085"},
		{"LineSeparator", "a\u2028b", 0, []error{ErrNotOneLine}, "U+2028"},
		{"ParagraphSeparator", "a\u2029b", 0, []error{ErrNotOneLine}, "U+2029"},
		{"InvalidUTF8", "ab\xff", 0, []error{ErrInvalidUTF8}, "offset 2"},
		{"BothProblems", "a\nbcd", 3, []error{ErrTooLong, ErrNotOneLine}, "5 bytes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := Check(tc.s, tc.max)
			if tc.wantErr == nil {
				assert.NoError(t, err)
				return
			}
			for _, want := range tc.wantErr {
				assert.True(t, errors.Is(err, want), "%v is not %v", err, want)
			}
			assert.ErrorContains(t, err, tc.wantMsg)
		})
	}
}

// An error must never quote the message: it may be the very text that
// must not be shown.
func TestCheck_ErrorDoesNotQuoteMessage(t *testing.T) {
	s := "password=hunter2\n" + strings.Repeat("x", 2000)
	err := Check(s, 0)
	assert.Error(t, err)
	assert.NotContains(t, err.Error(), "hunter2")
}

func TestClean(t *testing.T) {
	assert.True(t, Clean("spec.chat.channel: required"))
	assert.True(t, Clean(""))
	assert.False(t, Clean("a\nb"))
	assert.False(t, Clean(" a"))
	assert.False(t, Clean("a  b"))
	assert.False(t, Clean("dial 10.0.0.1"))
	assert.False(t, Clean(strings.Repeat("x", DefaultMaxBytes+1)))
}
