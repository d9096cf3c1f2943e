package redact

import (
	"cmp"
	"slices"
	"strings"
)

// kind says which placeholder replaces a span. The order is the tie-break
// when two spans start at the same byte and end at the same byte.
type kind uint8

const (
	kindSecret kind = iota
	kindURL
	kindEmail
	kindAddress
)

// Placeholders that replace what a message must not show. None of them
// matches any pattern, so a redacted message is a fixed point.
const (
	// PlaceholderSecret replaces tokens, secret values and long hex,
	// base64 or JWT runs.
	PlaceholderSecret = "[secret]"
	// PlaceholderURL replaces anything of the form scheme://...
	PlaceholderURL = "[url]"
	// PlaceholderEmail replaces e-mail addresses.
	PlaceholderEmail = "[email]"
	// PlaceholderAddress replaces IPv4 and IPv6 addresses and host:port.
	PlaceholderAddress = "[address]"
)

// maxPlaceholderLen is the length of the longest placeholder.
const maxPlaceholderLen = len(PlaceholderAddress)

var placeholders = [...]string{
	kindSecret:  PlaceholderSecret,
	kindURL:     PlaceholderURL,
	kindEmail:   PlaceholderEmail,
	kindAddress: PlaceholderAddress,
}

// span is a byte range [start, end) of the normalized message to replace.
type span struct {
	start, end int
	k          kind
}

func cmpSpan(a, b span) int {
	return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(b.end, a.end), cmp.Compare(a.k, b.k))
}

// indexFrom is the index in s of the first c at or after from, or -1:
// the step of every scan that jumps from one marker byte to the next.
func indexFrom(s string, from int, c byte) int {
	if i := strings.IndexByte(s[from:], c); i >= 0 {
		return from + i
	}
	return -1
}

// indexFoldFrom is the index in s of the first sep at or after from,
// ignoring ASCII case, or -1; sep is lower case and starts with a byte
// that has no case ('%').
func indexFoldFrom(s string, from int, sep string) int {
	for {
		i := indexFrom(s, from, sep[0])
		if i < 0 || hasPrefixFold(s[i:], sep) {
			return i
		}
		from = i + 1
	}
}

// findPlaceholders lists the placeholders already present in s. They are
// atomic: a later span that touches part of one swallows all of it, which
// keeps a second pass from cutting a placeholder in half.
func findPlaceholders(s string) []span {
	var out []span
	for from := 0; ; {
		i := indexFrom(s, from, '[')
		if i < 0 {
			return out
		}
		from = i + 1
		for k, p := range placeholders {
			if strings.HasPrefix(s[i:], p) {
				out = append(out, span{i, i + len(p), kind(k)})
				from = i + len(p)
				break
			}
		}
	}
}

// placeholderAt returns the placeholder with start < pos < end, if any.
func placeholderAt(ph []span, pos int) (span, bool) {
	i, _ := slices.BinarySearchFunc(ph, pos, func(p span, pos int) int { return cmp.Compare(p.start, pos) })
	// ph[i-1] is the last placeholder starting before pos.
	if i > 0 && ph[i-1].start < pos && pos < ph[i-1].end {
		return ph[i-1], true
	}
	return span{}, false
}

// resolve widens spans over the placeholders they touch, sorts them, merges
// overlaps (the earliest, longest span names the result) and drops spans
// that are exactly one existing placeholder, since replacing those would
// change nothing. It reuses the spans' backing array.
func resolve(spans, ph []span) []span {
	if len(spans) == 0 {
		return spans
	}
	if len(ph) > 0 {
		for i, sp := range spans {
			if p, ok := placeholderAt(ph, sp.start); ok {
				spans[i].start = p.start
			}
			if p, ok := placeholderAt(ph, sp.end); ok {
				spans[i].end = p.end
			}
		}
	}
	slices.SortFunc(spans, cmpSpan)
	merged := spans[:0]
	for _, sp := range spans {
		if n := len(merged); n > 0 && sp.start < merged[n-1].end {
			merged[n-1].end = max(merged[n-1].end, sp.end)
			continue
		}
		merged = append(merged, sp)
	}
	out := merged[:0]
	for _, sp := range merged {
		if isPlaceholder(ph, sp) {
			continue
		}
		out = append(out, sp)
	}
	return out
}

func isPlaceholder(ph []span, sp span) bool {
	i, found := slices.BinarySearchFunc(ph, sp.start, func(p span, pos int) int { return cmp.Compare(p.start, pos) })
	return found && ph[i].end == sp.end
}

// replace writes s with every span replaced by its placeholder.
func replace(s string, spans []span) string {
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for _, sp := range spans {
		b.WriteString(s[last:sp.start])
		b.WriteString(placeholders[sp.k])
		last = sp.end
	}
	b.WriteString(s[last:])
	return b.String()
}
