package redact

// Byte classes used by the scanners. A table lookup keeps every scanner a
// single branch per byte, which is what makes the clean path cheap.
const (
	cDigit  uint16 = 1 << iota // 0-9
	cHex                       // 0-9 a-f A-F
	cUpper                     // A-Z
	cLower                     // a-z
	cB64                       // base64 and base64url alphabet without '='
	cB64URL                    // base64url alphabet: A-Z a-z 0-9 - _
	cHost                      // host name characters: A-Z a-z 0-9 . - _
	cScheme                    // URL scheme characters: A-Z a-z 0-9 + . -
	cLocal                     // e-mail local part: A-Z a-z 0-9 . _ % + -
	cDomain                    // e-mail domain: A-Z a-z 0-9 . -
	cV6                        // IPv6 literal characters: hex digits, ':' and '.'
	cKey                       // key names before '=' or ':': A-Z a-z 0-9 _ . -
	cWord                      // A-Z a-z 0-9 _ (zone names)
	cLetter                    // A-Z a-z
)

var class = func() (t [256]uint16) {
	set := func(chars string, c uint16) {
		for i := 0; i < len(chars); i++ {
			t[chars[i]] |= c
		}
	}
	const (
		digits = "0123456789"
		upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		lower  = "abcdefghijklmnopqrstuvwxyz"
		alnum  = digits + upper + lower
	)
	set(digits, cDigit)
	set(digits+"abcdefABCDEF", cHex)
	set(upper, cUpper)
	set(lower, cLower)
	set(alnum+"+/-_", cB64)
	set(alnum+"-_", cB64URL)
	set(alnum+".-_", cHost)
	set(alnum+"+.-", cScheme)
	set(alnum+"._%+-", cLocal)
	set(alnum+".-", cDomain)
	set(digits+"abcdefABCDEF:.", cV6)
	set(alnum+"_.-", cKey)
	set(alnum+"_", cWord)
	set(upper+lower, cLetter)
	return t
}()

func is(c byte, k uint16) bool { return class[c]&k != 0 }

// Glue such as '_', '-', '/' or '.' next to a finding never saves it: only
// a letter or digit can make it part of a longer word.
func glued(c byte) bool { return is(c, cLetter|cDigit) }

// lowerASCII folds an ASCII letter to lower case and leaves other bytes.
func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hasPrefixFold reports whether s starts with the lower-case ASCII prefix p,
// ignoring ASCII case in s.
func hasPrefixFold[T ~string | ~[]byte](s T, p string) bool {
	if len(s) < len(p) {
		return false
	}
	for i := 0; i < len(p); i++ {
		if lowerASCII(s[i]) != p[i] {
			return false
		}
	}
	return true
}

// hasSuffixFold is hasPrefixFold for the end of s.
func hasSuffixFold[T ~string | ~[]byte](s T, p string) bool {
	return len(s) >= len(p) && hasPrefixFold(s[len(s)-len(p):], p)
}
