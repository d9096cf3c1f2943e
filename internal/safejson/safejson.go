// Package safejson writes JSON that a YAML reader reads back as the same
// value. An API server reads a server-side apply body as YAML (JSON is
// YAML), and YAML readers refuse, or read as a line break, characters
// that JSON carries raw and encoding/json leaves alone: DEL, the C1
// controls U+0080 to U+009F (NEL, U+0085, it reads as a line break and
// folds into a space), the noncharacters U+FFFE and U+FFFF. One
// such character in a status field makes the server refuse every apply
// of the object ("control characters are not allowed"). Written as a
// \u escape, the same character is plain ASCII to the reader and decodes
// to itself: the escape changes the bytes, never the value.
package safejson

import (
	"encoding/json"
	"unicode/utf8"
)

// Marshal is json.Marshal followed by Escape: the JSON encoding of v,
// every character a YAML reader would refuse or misread written as a \u
// escape.
func Marshal(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return Escape(b), nil
}

// Escape rewrites JSON text so that a YAML 1.1 or 1.2 reader (go.yaml.in
// yaml v2 and v3, sigs.k8s.io/yaml) reads it as a JSON reader does. Each
// character below becomes a \u escape (lower-case hex, as encoding/json
// writes its own):
//
//	U+0000–U+001F  C0 controls, but tab, line feed and carriage return
//	U+007F         DEL
//	U+0080–U+009F  C1 controls (NEL, U+0085, is a line break to YAML)
//	U+2028 U+2029  line and paragraph separators (YAML 1.1 counts them as
//	               line breaks; encoding/json escapes them too)
//	U+FEFF         byte order mark (YAML allows it only where a stream starts)
//	U+FFFE U+FFFF  noncharacters
//
// A byte that is not UTF-8 becomes \ufffd, as encoding/json writes one
// in a string. Outside its strings JSON text is ASCII, and tab, line
// feed and carriage return there are whitespace (kept as they are), so
// every character escaped stands inside a string and its escape decodes
// to it. Characters beyond U+FFFF stay raw: YAML refuses the surrogate
// escapes JSON would need for them, and reads them raw.
//
// Escape returns js itself, without allocating, when nothing needs an
// escape.
func Escape(js []byte) []byte {
	i := firstToEscape(js)
	if i == len(js) {
		return js
	}
	out := make([]byte, 0, len(js)+16)
	out = append(out, js[:i]...)
	for i < len(js) {
		c := js[i]
		if c < utf8.RuneSelf {
			if escapeByte(c) {
				out = appendEscape(out, rune(c))
			} else {
				out = append(out, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(js[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			out = appendEscape(out, utf8.RuneError)
		case escapeRune(r):
			out = appendEscape(out, r)
		default:
			out = append(out, js[i:i+n]...)
		}
		i += n
	}
	return out
}

// firstToEscape returns the index of the first byte that starts a
// character to escape, or len(js).
func firstToEscape(js []byte) int {
	for i := 0; i < len(js); {
		c := js[i]
		if c < utf8.RuneSelf {
			if escapeByte(c) {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(js[i:])
		if (r == utf8.RuneError && n == 1) || escapeRune(r) {
			return i
		}
		i += n
	}
	return len(js)
}

// escapeByte reports whether an ASCII byte is escaped: a C0 control that
// is not JSON whitespace, or DEL.
func escapeByte(c byte) bool {
	return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f
}

// escapeRune reports whether a character beyond ASCII is escaped.
func escapeRune(r rune) bool {
	return (0x80 <= r && r <= 0x9f) || r == 0x2028 || r == 0x2029 || r == 0xfeff || r == 0xfffe || r == 0xffff
}

const hexDigits = "0123456789abcdef"

// appendEscape appends \uXXXX for r, which is at most U+FFFF.
func appendEscape(out []byte, r rune) []byte {
	return append(out, '\\', 'u', hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
}
