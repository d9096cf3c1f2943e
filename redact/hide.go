package redact

import "strings"

// minHide is the shortest caller string that is hidden: one- and two-byte
// strings would shred ordinary words and cannot identify anything.
const minHide = 3

// usableHide reports whether h is hidden at all. The ellipsis itself is
// skipped: every cut message ends in it, so hiding it could never settle.
func usableHide(h string) bool {
	return len(h) >= minHide && h != ellipsis
}

// bracketed reports whether h can overlap part of a placeholder. Only such
// strings can form new occurrences once placeholders are written, since
// every placeholder starts with '[' and ends with ']'.
func bracketed(h string) bool {
	return strings.ContainsAny(h, "[]")
}

// inside reports whether [i, j) lies within one placeholder; such an
// occurrence (a Hide string "secret" inside "[secret]") is not the
// caller's text and stays.
func inside(ph []span, i, j int) bool {
	if p, ok := placeholderAt(ph, i+1); ok {
		return p.start <= i && j <= p.end
	}
	return false
}

// findHidden hides every leftmost, non-overlapping occurrence of each
// usable caller string that is not inside a placeholder.
func findHidden(s string, hides []string, ph []span, out []span) []span {
	for _, h := range hides {
		if !usableHide(h) {
			continue
		}
		for from := 0; ; {
			i := strings.Index(s[from:], h)
			if i < 0 {
				break
			}
			i += from
			if inside(ph, i, i+len(h)) {
				from = i + 1
				continue
			}
			out = append(out, span{i, i + len(h), kindHidden})
			from = i + len(h)
		}
	}
	return out
}

// hideAcrossPlaceholders removes occurrences of bracketed Hide strings that
// writing placeholders created ("x [url]" once a URL became "[url]"). It
// rebuilds s token by token (a placeholder is one token) and, whenever an
// occurrence ends in the token just written, replaces everything from its
// start with [hidden] and looks again, since the new placeholder can
// complete another occurrence. Each replacement removes at least one token,
// so the work is linear in len(s) times the length of those strings; they
// are rare (names and texts seldom hold brackets), and s without
// placeholders needs no pass at all.
func hideAcrossPlaceholders(s string, hides []string) (string, bool) {
	var bh []string
	for _, h := range hides {
		if usableHide(h) && bracketed(h) {
			bh = append(bh, h)
		}
	}
	if len(bh) == 0 {
		return s, false
	}
	ph := findPlaceholders(s)
	if len(ph) == 0 {
		return s, false
	}
	// An occurrence can only end on the last byte of some string, so most
	// bytes need no look at all.
	var ends [256]bool
	for _, h := range bh {
		ends[h[len(h)-1]] = true
	}
	out := make([]byte, 0, len(s))
	var stack []span // placeholders written to out, in order
	changed := false
	push := func(tok string, isPh bool) {
		base := len(out)
		out = append(out, tok...)
		if isPh {
			stack = append(stack, span{base, len(out), kindHidden})
		} else if !ends[tok[0]] {
			return
		}
		for {
			start, found := lastOccurrence(out, base, bh, stack)
			if !found {
				return
			}
			for len(stack) > 0 && stack[len(stack)-1].end > start {
				start = min(start, stack[len(stack)-1].start)
				stack = stack[:len(stack)-1]
			}
			out = append(out[:start], PlaceholderHidden...)
			stack = append(stack, span{start, len(out), kindHidden})
			base = start
			changed = true
		}
	}
	last := 0
	for _, p := range ph {
		for i := last; i < p.start; i++ {
			push(s[i:i+1], false)
		}
		push(s[p.start:p.end], true)
		last = p.end
	}
	for i := last; i < len(s); i++ {
		push(s[i:i+1], false)
	}
	if !changed {
		return s, false
	}
	return string(out), true
}

// lastOccurrence finds an occurrence of one of hs in out that ends after
// base and is not inside a single placeholder, and returns its start.
func lastOccurrence(out []byte, base int, hs []string, stack []span) (int, bool) {
	for end := base + 1; end <= len(out); end++ {
		for _, h := range hs {
			start := end - len(h)
			if start < 0 || string(out[start:end]) != h {
				continue
			}
			if n := len(stack); n > 0 && stack[n-1].start <= start && end <= stack[n-1].end {
				continue
			}
			return start, true
		}
	}
	return 0, false
}
