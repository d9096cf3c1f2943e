package redact

import (
	"strings"
	"unicode/utf8"
)

// cut shortens the redacted, normalized t to at most limit bytes ending in
// the ellipsis. Cutting can create a match that the whole text did not have
// (1.2.3.45 cut to 1.2.3.4), so the result is
// scanned again and, while anything would change, cut back to before the
// first span. The result is therefore a fixed point of Message; each round
// strictly shortens it, so the loop ends.
func cut(t string, limit int, names Names) string {
	if limit < len(ellipsis) {
		return "" // no room even for the ellipsis
	}
	n := outsidePlaceholder(t, runeStart(t, limit-len(ellipsis)))
	for {
		p := strings.TrimRight(t[:n], " ")
		if p == "" {
			return ellipsis
		}
		out := p + ellipsis
		spans := scan(out, names)
		if len(spans) == 0 {
			return out
		}
		n = outsidePlaceholder(t, min(spans[0].start, runeStart(p, len(p)-1)))
	}
}

// outsidePlaceholder moves a cut at n back to the start of a placeholder
// that straddles it: "[addr…" would read like leaked text.
func outsidePlaceholder(t string, n int) int {
	for i := n - 1; i >= 0 && i > n-maxPlaceholderLen; i-- {
		if t[i] != '[' {
			continue
		}
		for _, p := range placeholders {
			if strings.HasPrefix(t[i:], p) && i+len(p) > n {
				return i
			}
		}
	}
	return n
}

// runeStart moves n back to the start of the rune that contains byte n.
func runeStart(s string, n int) int {
	if n >= len(s) {
		return len(s)
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}

// Clip shortens s to at most maxBytes bytes, ending in "…" when it cut,
// and never splits a rune. It does not redact: use it on text already
// safe to show (a log detail, an echo in an error), where Message would be
// too much.
func Clip(s string, maxBytes int) string {
	if len(s) <= maxBytes {
		return s
	}
	if maxBytes < len(ellipsis) {
		return ""
	}
	return s[:runeStart(s, maxBytes-len(ellipsis))] + ellipsis
}
