package redact

import "strings"

// The scanners for addresses: IPv4 and IPv6 literals, host:port and a bare
// :port. Like the others, each runs in one left-to-right pass.

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// portEnd returns the end of ":digits" at s[i:] (a run of 1 to 5 digits),
// or i when there is none. What follows does not matter: "host:80abc"
// still hides "host:80".
func portEnd(s string, i int) int {
	if i >= len(s) || s[i] != ':' {
		return i
	}
	j := i + 1
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if n := j - i - 1; n == 0 || n > 5 {
		return i
	}
	return j
}

func findIPv4(s string, out []span) []span {
	// Every address has a dot between digits; jump from dot to dot.
	for from := 0; ; {
		d := indexFrom(s, from, '.')
		if d < 0 {
			return out
		}
		if d == 0 || d+1 >= len(s) || !isDigit(s[d-1]) || !isDigit(s[d+1]) {
			from = d + 1
			continue
		}
		i := d
		for i > from && (isDigit(s[i-1]) || s[i-1] == '.') {
			i--
		}
		for !isDigit(s[i]) {
			i++
		}
		j := d
		for j < len(s) && (isDigit(s[j]) || s[j] == '.') {
			j++
		}
		if hasIPv4(s[i:j]) && !versionWord(s[:i]) {
			end := j
			for s[end-1] == '.' {
				end--
			}
			out = append(out, span{i, portEnd(s, end), kindAddress})
		}
		from = j
	}
}

// hasIPv4 reports whether a run of digits and dots holds four consecutive
// parts that are each an octet. The whole run is hidden then: 1.2.3.4.5 is
// more likely an address with something glued to it than a version.
func hasIPv4(run string) bool {
	good := 0
	for part := range strings.SplitSeq(run, ".") {
		if isOctet(part) {
			good++
			if good == 4 {
				return true
			}
		} else {
			good = 0
		}
	}
	return false
}

func isOctet(p string) bool {
	if len(p) == 0 || len(p) > 3 {
		return false
	}
	v := 0
	for i := 0; i < len(p); i++ {
		if !isDigit(p[i]) {
			return false
		}
		v = v*10 + int(p[i]-'0')
	}
	return v <= 255
}

func findIPv6(s string, out []span) []span {
	// Every address has a colon; grow the run of IPv6 characters around
	// each one not yet seen.
	for from := 0; ; {
		c := indexFrom(s, from, ':')
		if c < 0 {
			return out
		}
		i := c
		for i > from && is(s[i-1], cV6) {
			i--
		}
		j := c
		colons := 0
		for j < len(s) && is(s[j], cV6) {
			if s[j] == ':' {
				colons++
			}
			j++
		}
		if colons >= 2 && (i == 0 || !is(s[i-1], cV6)) {
			if sp, ok := ipv6Span(s, i, j); ok {
				out = append(out, sp)
			}
		}
		from = j
	}
}

// ipv6Span checks the run s[i:j] of hex digits, ':' and '.' for an IPv6
// literal and widens it over a zone, brackets and a port.
func ipv6Span(s string, i, j int) (span, bool) {
	a := i
	for a < j && s[a] == '.' {
		a++ // ".::1" is a sentence or path dot before an address
	}
	for j-a > 3 && s[a] == ':' && s[a+1] == ':' && s[a+2] == ':' {
		a++ // ":::1": separating colons before "::1"
	}
	if a+1 < j && s[a] == ':' && s[a+1] != ':' {
		a++ // a lone leading ':' separates, as in "addr:2001:db8::1"
	} else if a > 0 && glued(s[a-1]) {
		return span{}, false // "Foo::Bar", "T10:00:00"
	}
	if j-a < 3 {
		return span{}, false
	}
	b := j
	for tries := 0; !validIPv6(s[a:b]); tries++ {
		// Up to two bytes of trailing punctuation: "at ::1.", "2001:db8::1:".
		if tries == 2 || b-a < 3 || (s[b-1] != '.' && s[b-1] != ':') {
			return span{}, false
		}
		b--
	}
	if b == j && b < len(s) && s[b] == '%' {
		z := b + 1
		for z < len(s) && (is(s[z], cWord) || s[z] == '.' || s[z] == '-' || s[z] == '~') {
			z++
		}
		if z > b+1 {
			b = z
		}
	}
	if b < len(s) && glued(s[b]) {
		return span{}, false // "::Bar"
	}
	if a > 0 && s[a-1] == '[' && b < len(s) && s[b] == ']' {
		a--
		b++
	}
	return span{a, portEnd(s, b), kindAddress}, true
}

// validIPv6 parses the textual IPv6 forms: eight groups, or fewer with one
// "::", optionally ending in a dotted IPv4. A bare "::" names nothing and
// is left alone.
func validIPv6(s string) bool {
	groups := 0
	double := false
	i := 0
	switch {
	case strings.HasPrefix(s, "::"):
		double = true
		i = 2
		if i == len(s) {
			return false
		}
	case strings.HasPrefix(s, ":"):
		return false
	}
	for i < len(s) {
		j := i
		for j < len(s) && is(s[j], cHex) {
			j++
		}
		if j < len(s) && s[j] == '.' {
			if !isIPv4Exact(s[i:]) {
				return false
			}
			groups += 2
			break
		}
		if j == i || j-i > 4 {
			return false
		}
		groups++
		if j == len(s) {
			break
		}
		// s[j] == ':'
		if j+1 < len(s) && s[j+1] == ':' {
			if double {
				return false
			}
			double = true
			i = j + 2
			continue
		}
		i = j + 1
		if i == len(s) {
			return false
		}
	}
	if double {
		return groups <= 7
	}
	return groups == 8
}

func isIPv4Exact(s string) bool {
	n := 0
	for part := range strings.SplitSeq(s, ".") {
		if !isOctet(part) {
			return false
		}
		n++
	}
	return n == 4
}

// findHostPorts hides "name:port" where the name has a dot or is localhost,
// and a bare ":port".
// A dotted name alone (my.app, spec.chat.channel) is left: it is far more
// often a Kubernetes name or a field path than a host.
func findHostPorts(s string, out []span) []span {
	for from := 0; ; {
		i := indexFrom(s, from, ':')
		if i < 0 {
			return out
		}
		end := portEnd(s, i)
		if end > i {
			start := i
			for start > from && is(s[start-1], cHost) {
				start--
			}
			for start < i && (s[start] == '.' || s[start] == '-' || s[start] == '_') {
				start++
			}
			if hostName(s[start:i]) || decimalIPv4(s[start:i]) || (start == i && barePortContext(s, i)) ||
				(end-i > 2 && !v6Continues(s, end) && serviceName(s[start:i]) && (start == 0 || !glued(s[start-1]))) {
				out = append(out, span{start, end, kindAddress})
			}
		}
		from = i + 1
	}
}

// barePortContext reports whether a ":port" at i stands alone, as in "listen
// tcp :8080": at the start or after white space, an opening quote, '(', ','
// or '='. After a digit or letter it is a time (10:00) or a name
// (echo:8080) instead.
func barePortContext(s string, i int) bool {
	if i == 0 {
		return true
	}
	switch s[i-1] {
	case ' ', '(', '=', ',':
		return true
	case '"', '\'':
		// An opening quote (addr=":9090"), not a closing one ("x":1).
		return i == 1 || strings.IndexByte(" =(,[{:", s[i-2]) >= 0
	}
	return false
}

func hostName(h string) bool {
	if strings.EqualFold(h, "localhost") {
		return true
	}
	dot := strings.IndexByte(h, '.')
	return dot > 0 && h[len(h)-1] != '.'
}

// versionWords name what a four-part number after them is: release-1.2.3.4
// and v1.2.3.4 are versions, not addresses.
var versionWords = [...]string{"release", "version", "ver", "rel", "tag", "build", "chart", "image", "app", "v"}

// versionWord reports whether before ends in one of versionWords,
// followed by '-', '_' or nothing ("v1.2.3.4"), and not glued to a longer
// word.
func versionWord(before string) bool {
	b := before
	if n := len(b); n > 0 && (b[n-1] == '-' || b[n-1] == '_') {
		b = b[:n-1]
	} else if n == 0 || (b[n-1] != 'v' && b[n-1] != 'V') {
		return false
	}
	for _, w := range versionWords {
		if hasSuffixFold(b, w) && (len(b) == len(w) || !glued(b[len(b)-len(w)-1])) {
			return true
		}
	}
	return false
}

// notHosts are words that a number follows after a colon in ordinary
// messages ("line:12", "exit:137"); they are never taken for a host.
var notHosts = [...]string{"attempt", "code", "col", "column", "count", "error", "exit", "generation",
	"http", "https", "index", "line", "offset", "page", "retries", "retry", "size", "status", "step", "version"}

// serviceName accepts a dotless host such as a Kubernetes service name
// (redis-master): it starts with a letter and is not one of notHosts. The
// caller asks for a port of at least two digits, so "step:3" stays.
func serviceName(h string) bool {
	if h == "" || !is(h[0], cLetter) {
		return false
	}
	for _, w := range notHosts {
		if len(h) == len(w) && hasPrefixFold(h, w) {
			return false
		}
	}
	return true
}

// v6Continues reports whether more IPv6 groups follow at i (":db8",
// "::"), so that "addr:2001:db8::1" is not read as the service "addr".
func v6Continues(s string, i int) bool {
	return i+1 < len(s) && s[i] == ':' && (s[i+1] == ':' || is(s[i+1], cHex))
}

// findEncodedHostPorts hides a host:port whose colon is percent-encoded
// (db.internal.corp%3A5432), as a query value or a logged form field
// carries it. The host is read as findHostPorts reads it.
func findEncodedHostPorts(s string, out []span) []span {
	const sep = "%3a"
	prev := 0
	for from := 0; ; {
		i := indexFoldFrom(s, from, sep)
		if i < 0 {
			return out
		}
		from = i + 1
		end := i + len(sep)
		for end < len(s) && isDigit(s[end]) {
			end++
		}
		if n := end - i - len(sep); n == 0 || n > 5 {
			continue
		}
		start := i
		for start > prev && is(s[start-1], cHost) {
			start--
		}
		for start < i && (s[start] == '.' || s[start] == '-' || s[start] == '_') {
			start++
		}
		h := s[start:i]
		if hostName(h) || decimalIPv4(h) ||
			(end-i-len(sep) > 1 && serviceName(h) && (start == 0 || !glued(s[start-1]))) {
			out = append(out, span{start, end, kindAddress})
			prev, from = end, end
		}
	}
}

// decimalIPv4 reports whether d is an IPv4 address written as one decimal
// number (167772167 is 10.0.0.7): 8 to 10 digits without a leading zero,
// from 16777216 (1.0.0.0) to 4294967295. Smaller numbers would stand for
// addresses in 0.0.0.0/8, which no one dials.
func decimalIPv4(d string) bool {
	if len(d) < 8 || len(d) > 10 || d[0] == '0' {
		return false
	}
	var v uint64
	for i := 0; i < len(d); i++ {
		if !isDigit(d[i]) {
			return false
		}
		v = v*10 + uint64(d[i]-'0')
	}
	return v >= 1<<24 && v <= 1<<32-1
}

// addressWords introduce an address in probe and dialer errors: a decimal
// number right after one of them ("host 167772167", "addr=167772167") is
// read as an address, while the same number elsewhere ("generation
// 167772167", "priceMicros 300000000") stays a number.
var addressWords = [...]string{"host", "hostname", "ip", "addr", "address", "server", "endpoint",
	"dial", "tcp", "udp", "upstream", "remote", "peer", "proxy"}

// findDecimalIPv4 hides an IPv4 address written as one decimal number
// where an address stands: after "//" or '@' (a URL's or a DSN's host)
// or after one of addressWords. Before a port it is host-port's. A number
// glued to a letter, a digit or a decimal point is never one.
func findDecimalIPv4(s string, out []span) []span {
	// Only a run of 8 or more digits can be one, and such a run starting
	// in [i, i+8) holds s[i+7]: when that byte is no digit, the scan skips
	// eight bytes at once. At each step s[i-1] is no digit, so the run
	// through s[i+7] starts at i or after.
	const minRun = 8
	for i := 0; i+minRun <= len(s); {
		if !isDigit(s[i+minRun-1]) {
			i += minRun
			continue
		}
		st := i + minRun - 1
		for st > i && isDigit(s[st-1]) {
			st--
		}
		j := i + minRun
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if decimalAddressAt(s, st, j) {
			out = append(out, span{st, portEnd(s, j), kindAddress})
		}
		i = j + 1 // s[j] is no digit
	}
	return out
}

// decimalAddressAt reports whether the run of digits s[i:j] is a decimal
// address where it stands: in range, not glued to a letter, a digit or a
// decimal point, and after addressBefore's context.
func decimalAddressAt(s string, i, j int) bool {
	return decimalIPv4(s[i:j]) && (i == 0 || (!glued(s[i-1]) && s[i-1] != '.')) &&
		(j == len(s) || (!glued(s[j]) && (s[j] != '.' || j+1 == len(s) || !isDigit(s[j+1])))) &&
		addressBefore(s[:i])
}

// addressBefore reports whether the text before ends where an address
// stands: "//", '@', or one of addressWords followed by a space, '=' or
// ':' (with spaces around them or not).
func addressBefore(before string) bool {
	if strings.HasSuffix(before, "//") || strings.HasSuffix(before, "@") {
		return true
	}
	b := strings.TrimSuffix(before, " ")
	if n := len(b); n > 0 && (b[n-1] == '=' || b[n-1] == ':') {
		b = strings.TrimSuffix(b[:n-1], " ")
	}
	if len(b) == len(before) {
		return false // glued to the word: "host167772167"
	}
	for _, w := range addressWords {
		if hasSuffixFold(b, w) && (len(b) == len(w) || !glued(b[len(b)-len(w)-1])) {
			return true
		}
	}
	return false
}
