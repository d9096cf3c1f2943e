package redact

import "strings"

// The scanners for URLs and e-mail addresses. Each appends the spans it
// finds in the normalized message s to out and runs in one left-to-right
// pass; every back-up stops at a byte that the forward scan never crosses,
// so total work stays linear.

// urlStop ends a URL: white space and the quotes and angle brackets that
// usually delimit one in prose.
func urlStop(c byte) bool {
	switch c {
	case ' ', '"', '\'', '<', '>', '`':
		return true
	}
	return false
}

func findURLs(s string, out []span) []span {
	for from := 0; ; {
		i := strings.Index(s[from:], "://")
		if i < 0 {
			return out
		}
		i += from
		start := i
		for start > from && is(s[start-1], cScheme) {
			start--
		}
		end := i + 3
		for end < len(s) && !urlStop(s[end]) {
			end++
		}
		end = trimURLTail(s[i+3:end]) + i + 3
		if end == i+3 {
			// "scheme://" with nothing after it names nothing.
			from = end
			continue
		}
		out = append(out, span{start, end, kindURL})
		from = end
	}
}

// trimURLTail returns the length of rest without trailing sentence
// punctuation and without closing brackets that have no opener inside the
// URL: "(see http://x/a)." keeps its ")." outside the placeholder. Only
// punctuation is ever left outside, so nothing of the URL leaks.
func trimURLTail(rest string) int {
	open := [3]int{strings.Count(rest, "("), strings.Count(rest, "["), strings.Count(rest, "{")}
	closeN := [3]int{strings.Count(rest, ")"), strings.Count(rest, "]"), strings.Count(rest, "}")}
	n := len(rest)
	for n > 0 {
		switch c := rest[n-1]; c {
		case '.', ',', ';', ':', '!', '?':
			n--
			continue
		case ')', ']', '}':
			k := strings.IndexByte(")]}", c)
			if closeN[k] > open[k] {
				closeN[k]--
				n--
				continue
			}
		}
		break
	}
	return n
}

func findEmails(s string, out []span) []span {
	// The local part never holds '@' and the domain stops at one, so each
	// byte is looked at from at most two '@'s.
	lastEnd := 0
	for from := 0; ; {
		i := indexFrom(s, from, '@')
		if i < 0 {
			return out
		}
		from = i + 1
		start := i
		for start > lastEnd && is(s[start-1], cLocal) {
			start--
		}
		end := i + 1
		for end < len(s) && is(s[end], cDomain) {
			end++
		}
		for end > i+1 && (s[end-1] == '.' || s[end-1] == '-') {
			end--
		}
		if start < i && emailDomain(s[i+1:end]) {
			out = append(out, span{start, end, kindEmail})
			from, lastEnd = end, end
		}
		out = appendUserInfo(s, i, out)
	}
}

// appendUserInfo hides "user:password" before the '@' at i, as in a
// connection string without a scheme ("sa:pw@tcp(db:3306)/x"); the word
// runs back to white space, a quote, '/' or '@'.
func appendUserInfo(s string, i int, out []span) []span {
	start := i
	colon := false
	for start > 0 {
		c := s[start-1]
		if c == ' ' || c == '/' || c == '@' || c == '"' || c == '\'' || c == '(' || c == '<' {
			break
		}
		colon = colon || c == ':'
		start--
	}
	if colon && start < i {
		out = append(out, span{start, i, kindSecret})
	}
	return out
}

// emailDomain accepts a dotted name (a.b) or localhost.
func emailDomain(d string) bool {
	if strings.EqualFold(d, "localhost") {
		return true
	}
	dot := strings.IndexByte(d, '.')
	return dot > 0 && dot < len(d)-1
}
