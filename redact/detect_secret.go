package redact

import (
	"strings"
	"unicode/utf8"
)

// The secret scanners: authorization schemes, key=value secrets, long hex,
// base64 and JWT runs, and the caller's own strings.

func findAuthTokens(s string, out []span) []span {
	for i := 0; i < len(s); i++ {
		if lowerASCII(s[i]) != 'b' || (i > 0 && glued(s[i-1])) {
			continue
		}
		var ts int
		basic := false
		switch {
		case hasPrefixFold(s[i:], "bearer "):
			ts = i + len("bearer ")
		case hasPrefixFold(s[i:], "basic "):
			ts = i + len("basic ")
			basic = true
		default:
			continue
		}
		te := ts
		if basic {
			// "basic" is also an English word: only a credential-shaped
			// base64 run after it counts.
			for te < len(s) && is(s[te], cB64) && s[te] != '-' && s[te] != '_' {
				te++
			}
			for te < len(s) && s[te] == '=' {
				te++
			}
			if !basicCredential(s[ts:te]) {
				continue
			}
		} else {
			ts = openQuote(s, ts)
			te = valueEnd(s, ts)
			if te == ts {
				continue
			}
		}
		out = append(out, span{ts, te, kindSecret})
		i = te
	}
	return out
}

// basicCredential accepts a base64 run of at least 8 bytes that does not
// read as a word: it has a digit, '+', '/' or '=', or an upper-case letter
// after its first byte ("dXNlcjpwYXNz", not "Authentication").
func basicCredential(t string) bool {
	if len(t) < 8 {
		return false
	}
	if strings.ContainsAny(t, "0123456789+/=") {
		return true
	}
	for i := 1; i < len(t); i++ {
		if is(t[i], cUpper) {
			return true
		}
	}
	return false
}

// secretKeys are matched as a case-insensitive suffix of the key, so
// db_password, X-Api-Key and refresh_token count too.
var secretKeys = [...]string{
	"password", "passwd", "passphrase", "pwd", "pw",
	"token", "secret", "credential", "credentials",
	"apikey", "api_key", "api-key",
	"access_key", "accesskey", "accountkey", "secret_key", "secretkey",
	"private_key", "privatekey", "client_secret", "auth", "cookie",
	"signature",
}

// partKeys are secret keys too short to match inside a longer word: they
// count as the whole key or after '_', '-' or '.' (pass, db_pass, sig,
// x-sig), never as the end of another word (bypass, compass).
var partKeys = [...]string{"pass", "sig"}

func secretKey[T ~string | ~[]byte](k T) bool {
	for _, sk := range secretKeys {
		if hasSuffixFold(k, sk) {
			return true
		}
	}
	for _, pk := range partKeys {
		if hasSuffixFold(k, pk) && (len(k) == len(pk) || strings.IndexByte("_-.", k[len(k)-len(pk)-1]) >= 0) {
			return true
		}
	}
	return false
}

// confusables map letters of other scripts that read as an ASCII letter
// (Cyrillic а, е, о, р, с; Greek ο, ρ, ...) to that letter in lower case.
// A key is read through them, so "pаssword=" spelled with a Cyrillic а is
// still a password; the text shown is not changed.
var confusables = map[rune]byte{
	// Cyrillic.
	'а': 'a', 'в': 'b', 'е': 'e', 'ѕ': 's', 'і': 'i', 'ј': 'j', 'к': 'k', 'о': 'o', 'р': 'p', 'с': 'c',
	'у': 'y', 'х': 'x', 'һ': 'h', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'ӏ': 'l',
	'А': 'a', 'В': 'b', 'Е': 'e', 'Ѕ': 's', 'І': 'i', 'Ј': 'j', 'К': 'k', 'М': 'm', 'Н': 'h', 'О': 'o',
	'Р': 'p', 'С': 'c', 'Т': 't', 'У': 'y', 'Х': 'x', 'Ԛ': 'q', 'Ԝ': 'w',
	// Greek.
	'α': 'a', 'ε': 'e', 'ι': 'i', 'κ': 'k', 'ν': 'v', 'ο': 'o', 'ρ': 'p', 'υ': 'u',
	'Α': 'a', 'Β': 'b', 'Ε': 'e', 'Ζ': 'z', 'Η': 'h', 'Ι': 'i', 'Κ': 'k', 'Μ': 'm', 'Ν': 'n', 'Ο': 'o',
	'Ρ': 'p', 'Τ': 't', 'Υ': 'y', 'Χ': 'x',
	// Latin letters that lack or hide a dot.
	'ı': 'i', 'ɡ': 'g',
}

// foldedKeyLen bounds how much of a key is folded: more than the longest
// secret key, which is all that is compared.
const foldedKeyLen = 24

// foldedKey reads the key that ends at k back through confusables, into
// buf in lower-case ASCII, and returns its last bytes (at most
// len(buf)). ok is false when the key holds no confusable letter, and the
// caller then reads the key as it is.
func foldedKey(s string, k int, buf *[foldedKeyLen]byte) (key []byte, ok bool) {
	n := len(buf)
	for k > 0 && n > 0 {
		if c := s[k-1]; is(c, cKey) {
			n--
			buf[n] = lowerASCII(c)
			k--
			continue
		} else if c < utf8.RuneSelf {
			break
		}
		r, w := utf8.DecodeLastRuneInString(s[:k])
		a, found := confusables[r]
		if !found {
			break
		}
		n--
		buf[n] = a
		k -= w
		ok = true
	}
	return buf[n:], ok
}

// findKeyValues hides the value in "key=value", "key: value", "key = value"
// and JSON-like `"key": "value"` when the key names a secret. A quoted
// value runs to its closing quote (to the end when there is none, since a
// secret may hold spaces); a bare value runs as far as valueEnd lets it.
func findKeyValues(s string, out []span) []span {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '=' && c != ':' {
			continue
		}
		v := i + 1
		if v < len(s) && (s[v] == c || (c == ':' && strings.HasPrefix(s[v:], "//"))) {
			continue // "==", "::", "://"
		}
		k := i
		if k > 0 && s[k-1] == ' ' {
			k--
		}
		if k > 0 && (s[k-1] == '"' || s[k-1] == '\'') {
			k--
		}
		ks := k
		for ks > 0 && is(s[ks-1], cKey) {
			ks--
		}
		isKey := ks < k && secretKey(s[ks:k])
		if !isKey && ks > 0 && s[ks-1] >= utf8.RuneSelf {
			var buf [foldedKeyLen]byte
			fk, ok := foldedKey(s, k, &buf)
			isKey = ok && secretKey(fk)
		}
		if !isKey {
			continue
		}
		if v < len(s) && s[v] == ' ' {
			v++
		}
		if v >= len(s) {
			continue
		}
		var ve int
		spaced := v > i+1 && c == ':'
		if q := s[v]; q == '"' || q == '\'' {
			v++
			ve = strings.IndexByte(s[v:], q)
			if ve < 0 {
				ve = len(s)
			} else {
				ve += v
			}
		} else {
			ve = valueEnd(s, v)
			// "token: required" is prose, "token=required" is not.
			if spaced && proseWord(s[v:ve]) {
				continue
			}
		}
		if ve > v {
			out = append(out, span{v, ve, kindSecret})
			i = ve - 1
		}
	}
	return out
}

// Long-run thresholds. 32 hex digits is a 128-bit value (an MD5, a UUID
// without dashes, most API keys); 40 base64 characters is 240 bits.
const (
	minHexRun    = 32
	minBase64Run = 40
)

// findRuns hides long hex runs, long base64 runs and short random-looking
// tokens in one pass: the hex alphabet is inside the base64 one, so each
// hex run lies within a base64 run, and so does each token. A base64 run
// counts only with both upper- and lower-case letters: random data always
// has them, while Kubernetes names (lower case) and constants (upper
// case) do not.
func findRuns(s string, out []span) []span {
	for i := 0; i < len(s); {
		if !is(s[i], cB64) {
			i++
			continue
		}
		j := i
		var seen uint16
		hexStart := i
		for j < len(s) && is(s[j], cB64) {
			c := class[s[j]]
			seen |= c
			if c&cHex == 0 {
				if j-hexStart >= minHexRun {
					out = append(out, span{hexStart, j, kindSecret})
				}
				hexStart = j + 1
			}
			j++
		}
		if j-hexStart >= minHexRun {
			out = append(out, span{hexStart, j, kindSecret})
		}
		e := j
		for pad := 0; pad < 2 && e < len(s) && s[e] == '='; pad++ {
			e++
		}
		if j-i >= minTokenRun && seen&cUpper != 0 && seen&cLower != 0 {
			out = shortTokens(s, i, j, e, out)
		}
		if e-i >= minBase64Run && seen&cUpper != 0 && seen&cLower != 0 {
			out = append(out, span{i, e, kindSecret})
		}
		i = e
	}
	return out
}

// minTokenRun is the shortest base64 token hidden for its shape alone:
// twelve characters are 72 bits, a password or key a person or a
// generator picks.
const minTokenRun = 12

// shortTokens hides each token in the base64 run s[a:b] (its padding
// runs to e) that has minTokenRun to minBase64Run-1 characters and reads
// as random rather than as words: it has both upper- and lower-case
// letters and splits into at least two CamelCase segments for every five
// characters (see segments). Random base64 of that length passes more
// than nine times in ten; an identifier (ObservedGeneration,
// X509Certificate, IPv4AddressPool) has far fewer segments, and a
// Kubernetes name has no capital. A token is letters, digits, '+' and
// '/': it ends at '-' and '_' as at any other byte, so each part of a
// longer word is judged on its own. Only a run long enough and with both
// cases is split, so ordinary words cost nothing here.
func shortTokens(s string, a, b, e int, out []span) []span {
	for p := a; p < b; {
		q := p
		var seen uint16
		for q < b && s[q] != '-' && s[q] != '_' {
			seen |= class[s[q]]
			q++
		}
		end := q
		if q == b {
			end = e // the padding belongs to the last token
		}
		if n := q - p; n >= minTokenRun && n < minBase64Run && seen&cUpper != 0 && seen&cLower != 0 && 5*segments(s[p:q]) >= 2*n {
			out = append(out, span{p, end, kindSecret})
		}
		p = q + 1
	}
	return out
}

// segments counts the parts t splits into as CamelCase identifiers split:
// a capital with the lower-case run after it, a run of capitals (giving
// its last one to a lower-case run after it: HTTPServer is HTTP, Server),
// a lower-case run and a run of digits. '+' and '/' separate parts and
// are not counted, so a path of words (/etc/certs/CA) stays a few words.
func segments(t string) int {
	n := 0
	for i := 0; i < len(t); {
		j := i + 1
		c := class[t[i]]
		if c&(cLetter|cDigit) != 0 {
			n++
		}
		if c&cUpper != 0 {
			for j < len(t) && is(t[j], cUpper) {
				j++
			}
			if j < len(t) && is(t[j], cLower) {
				if j-i > 1 {
					j--
				} else {
					for j < len(t) && is(t[j], cLower) {
						j++
					}
				}
			}
		} else if c&cLower != 0 {
			for j < len(t) && is(t[j], cLower) {
				j++
			}
		} else if c&cDigit != 0 {
			for j < len(t) && is(t[j], cDigit) {
				j++
			}
		}
		i = j
	}
	return n
}

// findJWTs hides header.payload.signature runs whose header starts with
// "eyJ" (base64url of `{"`), whatever their length.
func findJWTs(s string, out []span) []span {
	for from := 0; ; {
		i := strings.Index(s[from:], "eyJ")
		if i < 0 {
			return out
		}
		i += from
		if i > 0 && glued(s[i-1]) {
			from = i + 3
			continue
		}
		j := i
		dots := 0
		for j < len(s) {
			if is(s[j], cB64URL) {
				j++
			} else if s[j] == '.' && dots < 2 {
				dots++
				j++
			} else {
				break
			}
		}
		if dots == 2 {
			out = append(out, span{i, j, kindSecret})
		}
		from = j
	}
}

// valueEnd returns where a bare secret value that starts at v ends: at the
// first byte that separates it from what follows in the texts that carry
// such values. Those are white space; a quote or backquote (the value sat
// inside a quoted string); '&' and ';' (the next field of a query string
// or a cookie header); ',' (the next item of a list); and a closing
// bracket ')', ']', '}' or '>' that the value did not open itself. A
// bracket pair inside the value (pass(1)x) stays part of it. Everything
// else, '.', ':', '=', '/', '+', '%' and '|' included, may be part of a
// secret and is hidden with it.
func valueEnd(s string, v int) int {
	depth := 0
	for j := v; j < len(s); j++ {
		switch s[j] {
		case ' ', '"', '\'', '`', '&', ';', ',':
			return j
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}', '>':
			if depth == 0 {
				return j
			}
			depth--
		}
	}
	return len(s)
}

// openQuote steps over a quote that opens a value at v ("Bearer 'abc'"),
// so that valueEnd stops at the closing one.
func openQuote(s string, v int) int {
	if v < len(s) && (s[v] == '"' || s[v] == '\'' || s[v] == '`') {
		return v + 1
	}
	return v
}
