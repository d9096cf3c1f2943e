package redact

import "strings"

// The other spellings of an address that dialers and URL parsers accept:
// IPv4 with hex or octal parts (inet_aton's forms) and IPv6 with its
// colons or brackets percent-encoded, as a query value carries it.

// findIPv4HexOctal hides an IPv4 address written with hex or octal
// parts: a dotted quad such as 0x0a.0.0.7 or 0300.0250.0.01 wherever it
// stands (the dotted decimal and short octal forms, 10.0.0.7 and
// 012.0.0.07, are findIPv4's), and one number such as 0x0a000007 or
// 01200000007 where an address stands (see addressBefore) or before a
// port. A hex colour, a commit hash and a version keep their text: they
// have no 0x and no four octets.
func findIPv4HexOctal(s string, out []span) []span {
	for from := 0; ; {
		i := indexFoldFrom(s, from, "0")
		if i < 0 {
			return out
		}
		if i > 0 && (glued(s[i-1]) || s[i-1] == '.') {
			from = i + 1
			continue
		}
		j := i
		for j < len(s) && (is(s[j], cHex) || s[j] == '.' || s[j] == 'x' || s[j] == 'X') {
			j++
		}
		for j > i && s[j-1] == '.' {
			j-- // a full stop after the address
		}
		if j < len(s) && glued(s[j]) {
			from = j
			continue
		}
		run := s[i:j]
		switch {
		case strings.Count(run, ".") == 3 && inetQuad(run) && !versionWord(s[:i]):
			out = append(out, span{i, portEnd(s, j), kindAddress})
		case !strings.Contains(run, ".") && inetNumber(run) && (addressBefore(s[:i]) || portEnd(s, j) > j):
			out = append(out, span{i, portEnd(s, j), kindAddress})
		}
		from = max(j, i+1)
	}
}

// inetQuad reports whether a.b.c.d has four parts that each name an
// octet, at least one of them in hex (0x0a) or in an octal form longer
// than a decimal octet's three digits (0300).
func inetQuad(run string) bool {
	other := false
	for part := range strings.SplitSeq(run, ".") {
		v, base, ok := inetPart(part)
		if !ok || v > 255 {
			return false
		}
		other = other || base == 16 || (base == 8 && len(part) > 3)
	}
	return other
}

// inetNumber reports whether n is a whole address as one hex (0x…) or
// octal (0…, eight digits or more) number in the range decimalIPv4
// accepts.
func inetNumber(n string) bool {
	v, base, ok := inetPart(n)
	if !ok || base == 10 || (base == 8 && len(n) < 9) {
		return false
	}
	return v >= 1<<24 && v <= 1<<32-1
}

// inetPart reads one part as inet_aton does: 0x and hex digits, 0 and
// octal digits, or decimal digits; at most 11 digits, so it never
// overflows.
func inetPart(p string) (v uint64, base int, ok bool) {
	digits := p
	switch {
	case len(p) > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'):
		base, digits = 16, p[2:]
	case len(p) > 1 && p[0] == '0':
		base, digits = 8, p[1:]
	default:
		base = 10
	}
	if digits == "" || len(digits) > 11 {
		return 0, base, false
	}
	for i := 0; i < len(digits); i++ {
		d := hexValue(digits[i])
		if d < 0 || d >= base {
			return 0, base, false
		}
		v = v*uint64(base) + uint64(d)
	}
	return v, base, true
}

// hexValue is the value of a hex digit, or -1.
func hexValue(c byte) int {
	switch {
	case isDigit(c):
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// findEncodedIPv6 hides an IPv6 literal whose colons or brackets are
// percent-encoded: fe80%3A%3A1, %5B::1%5D, %5Bfe80%3A%3A1%5D%3A8443 (the
// port with it). The run is decoded and read as findIPv6 reads a
// literal; a run with nothing encoded is findIPv6's.
func findEncodedIPv6(s string, out []span) []span {
	var dec []byte
	for from := 0; ; {
		p := nextEncoded(s, from)
		if p < 0 {
			return out
		}
		i := p
		for i > from && (is(s[i-1], cV6) || encodedV6(s, i-3)) {
			if encodedV6(s, i-3) {
				i -= 3
			} else {
				i--
			}
		}
		j := p
		dec = dec[:0]
		zoned, afterZone := false, false
		for k := i; k < len(s); {
			if e := encodedV6(s, k); e || is(s[k], cV6) {
				if afterZone && (!e || decodeV6(s[k+1:k+3]) != ']') {
					break // only the closing bracket may follow a zone
				}
				afterZone = false
				if e {
					dec = append(dec, decodeV6(s[k+1:k+3]))
					k += 3
				} else {
					dec = append(dec, s[k])
					k++
				}
				j = k
				continue
			}
			// A zone after the address, its '%' written %25 (as RFC 6874
			// has it in a URL) or bare: fe80%3A%3A1%25eth0.
			if z := zoneEnd(s, k); !zoned && len(dec) > 0 && z > k {
				dec = append(dec, '%')
				dec = append(dec, s[k+zoneMark(s, k):z]...)
				k, j, zoned, afterZone = z, z, true, true
				continue
			}
			break
		}
		// Up to two bytes of trailing punctuation, as findIPv6 allows:
		// "fe80%3A%3A1: refused", "%5B::1%5D%3A8443:".
		for end, tries := j, 0; tries <= 2 && len(dec) > 0; tries++ {
			if sp, ok := encodedIPv6Span(s, i, end, string(dec)); ok {
				out = append(out, sp)
				break
			}
			if last := dec[len(dec)-1]; last != ':' && last != '.' {
				break
			}
			if encodedV6(s, end-3) {
				end -= 3
			} else {
				end--
			}
			dec = dec[:len(dec)-1]
		}
		from = max(j, p+3)
	}
}

// zoneMark is the length of the zone mark at s[k]: 3 for %25, 1 for a
// bare '%', 0 for none.
func zoneMark(s string, k int) int {
	if strings.HasPrefix(s[k:], "%25") {
		return 3
	}
	if k < len(s) && s[k] == '%' {
		return 1
	}
	return 0
}

// zoneEnd returns the end of a zone at s[k] (its mark, then one or more
// letters, digits, '_', '.', '-' or '~', as findIPv6 reads one), or k
// when there is none.
func zoneEnd(s string, k int) int {
	m := zoneMark(s, k)
	if m == 0 {
		return k
	}
	z := k + m
	for z < len(s) && (is(s[z], cWord) || s[z] == '.' || s[z] == '-' || s[z] == '~') {
		z++
	}
	if z == k+m {
		return k
	}
	return z
}

// nextEncoded is the offset of the next %3A, %5B or %5D at or after
// from, or -1.
func nextEncoded(s string, from int) int {
	for {
		i := indexFrom(s, from, '%')
		if i < 0 {
			return -1
		}
		if encodedV6(s, i) {
			return i
		}
		from = i + 1
	}
}

// encodedV6 reports whether s holds %3A, %5B or %5D (any case) at i.
func encodedV6(s string, i int) bool {
	if i < 0 || i+3 > len(s) || s[i] != '%' {
		return false
	}
	e := s[i+1 : i+3]
	return strings.EqualFold(e, "3a") || strings.EqualFold(e, "5b") || strings.EqualFold(e, "5d")
}

func decodeV6(e string) byte {
	switch {
	case strings.EqualFold(e, "3a"):
		return ':'
	case strings.EqualFold(e, "5b"):
		return '['
	}
	return ']'
}

// encodedIPv6Span checks the run s[i:j], decoded as dec, for an IPv6
// literal, optionally in brackets and then with a port.
func encodedIPv6Span(s string, i, j int, dec string) (span, bool) {
	if (i > 0 && (glued(s[i-1]) || s[i-1] == '_')) || (j < len(s) && glued(s[j])) {
		return span{}, false // "Foo%3A%3ABar"
	}
	addr := strings.Trim(dec, ".")
	if strings.HasPrefix(addr, "[") {
		end := strings.IndexByte(addr, ']')
		if end < 0 {
			return span{}, false
		}
		if rest := addr[end+1:]; rest != "" && portEnd(rest, 0) != len(rest) {
			return span{}, false
		}
		addr = addr[1:end]
	}
	if z := strings.IndexByte(addr, '%'); z >= 0 {
		addr = addr[:z] // the zone, read by findEncodedIPv6
	}
	if strings.Count(addr, ":") < 2 || !validIPv6(addr) {
		return span{}, false
	}
	return span{i, portEnd(s, j), kindAddress}, true
}
