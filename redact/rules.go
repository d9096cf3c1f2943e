package redact

import "strings"

// The rule table: one named detector per family of things a message must
// not show, the way secret scanners keep theirs. Every rule has positive
// and negative examples in rules_test.go, and a rule without them fails
// that test. scan runs the rules in this order; overlaps are merged, so
// the order never changes the result.

// rule is one detector: a stable name (used by the tests and in the
// package doc) and the scanner that appends its findings. A rule marked
// byContext finds a value by the words around it (a key, "Bearer", "the
// password is"), not by its own shape: what it finds stays hidden even
// where it reads as a name the reader sees (see Names).
type rule struct {
	name      string
	find      func(s string, out []span) []span
	byContext bool
}

var rules = [...]rule{
	{"url", findURLs, false},
	{"url-percent-encoded", findEncodedURLs, false},
	{"email", findEmails, false},
	{"ipv4", findIPv4, false},
	{"ipv6", findIPv6, false},
	{"host-port", findHostPorts, false},
	{"host-port-percent-encoded", findEncodedHostPorts, false},
	{"ipv4-decimal", findDecimalIPv4, false},
	{"ipv4-hex-octal", findIPv4HexOctal, false},
	{"ipv6-percent-encoded", findEncodedIPv6, false},
	{"auth-scheme", findAuthTokens, true},
	{"key-value", findKeyValues, true},
	{"password-phrase", findPasswordPhrases, true},
	{"connection-string", findConnectionStrings, true},
	{"slack-token", slackToken.find, false},
	{"aws-access-key-id", awsKeyID.find, false},
	{"github-token", githubToken.find, false},
	{"stripe-key", stripeKey.find, false},
	{"gitlab-token", gitlabToken.find, false},
	{"google-api-key", googleAPIKey.find, false},
	{"huggingface-token", huggingFaceToken.find, false},
	{"square-token", squareToken.find, false},
	{"pem-block", findPEM, false},
	{"long-run", findRuns, false},
	{"jwt", findJWTs, false},
}

// prefixed is a token family known by its prefix: the prefix, then at
// least min (and at most max, 0 for no bound) bytes of its alphabet, not
// glued to a letter or digit on either side.
type prefixed struct {
	prefixes []string
	body     func(c byte) bool
	min, max int
}

func alnum(c byte) bool        { return is(c, cLetter|cDigit) }
func upperDigit(c byte) bool   { return is(c, cUpper|cDigit) }
func alnumDash(c byte) bool    { return is(c, cB64URL) }
func alnumUnderLn(c byte) bool { return is(c, cWord) }

var (
	// Slack bot, user, app-level, refresh and configuration tokens.
	slackToken = prefixed{[]string{"xoxb-", "xoxp-", "xoxa-", "xoxo-", "xoxr-", "xoxs-", "xoxe-", "xapp-"}, alnumDash, 10, 0}
	// AWS access key IDs: long-term (AKIA), temporary (ASIA) and the
	// other IAM unique-ID prefixes, always 16 more capitals and digits.
	awsKeyID = prefixed{[]string{"AKIA", "ASIA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA", "ABIA", "ACCA"}, upperDigit, 16, 16}
	// GitHub personal, OAuth, user-to-server, server-to-server and
	// refresh tokens, and fine-grained personal access tokens.
	githubToken = prefixed{[]string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, alnumUnderLn, 20, 0}
	// Stripe secret and restricted keys, live and test.
	stripeKey = prefixed{[]string{"sk_live_", "sk_test_", "rk_live_", "rk_test_"}, alnum, 10, 0}
	// GitLab personal, pipeline-trigger, deploy and runner tokens.
	gitlabToken = prefixed{[]string{"glpat-", "glptt-", "gldt-", "glrt-", "gloas-"}, alnumDash, 20, 0}
	// Google API keys.
	googleAPIKey = prefixed{[]string{"AIza"}, alnumDash, 35, 35}
	// Hugging Face user access tokens (34 letters after the prefix; 30
	// is enough to tell one from a word such as hf_token).
	huggingFaceToken = prefixed{[]string{"hf_"}, alnum, 30, 0}
	// Square access tokens and application secrets.
	squareToken = prefixed{[]string{"sq0atp-", "sq0csp-"}, alnumDash, 22, 0}
)

func (p prefixed) find(s string, out []span) []span {
	for _, pre := range p.prefixes {
		for from := 0; ; {
			i := strings.Index(s[from:], pre)
			if i < 0 {
				break
			}
			i += from
			j := i + len(pre)
			for j < len(s) && p.body(s[j]) && (p.max == 0 || j-i-len(pre) < p.max) {
				j++
			}
			n := j - i - len(pre)
			if n >= p.min && (i == 0 || !glued(s[i-1])) && (j == len(s) || !glued(s[j])) {
				out = append(out, span{i, j, kindSecret})
			}
			from = max(j, i+1)
		}
	}
	return out
}

// findEncodedURLs hides a URL whose "://" is percent-encoded
// (https%3A%2F%2Fuser%3Apass%40host), as it appears inside another URL's
// query or a logged form value.
func findEncodedURLs(s string, out []span) []span {
	const sep = "%3a%2f%2f"
	for from := 0; ; {
		i := indexFoldFrom(s, from, sep)
		if i < 0 {
			return out
		}
		start := i
		for start > from && is(s[start-1], cScheme) {
			start--
		}
		end := i + len(sep)
		for end < len(s) && !urlStop(s[end]) {
			end++
		}
		out = append(out, span{start, end, kindURL})
		from = end
	}
}

// findPEM hides a PEM block from its -----BEGIN line to the end of its
// -----END line, or to the end of the message when the block was cut.
func findPEM(s string, out []span) []span {
	for from := 0; ; {
		i := strings.Index(s[from:], "-----BEGIN ")
		if i < 0 {
			return out
		}
		i += from
		end := len(s)
		if e := strings.Index(s[i:], "-----END "); e >= 0 {
			e += i + len("-----END ")
			if f := strings.Index(s[e:], "-----"); f >= 0 {
				end = e + f + len("-----")
			}
		}
		out = append(out, span{i, end, kindSecret})
		from = end
	}
}

// phraseKeys introduce a secret in prose: "the password is hunter2".
var phraseKeys = [...]string{"password", "passwd", "passphrase", "pwd", "pw", "token", "secret", "api key", "apikey"}

// findPasswordPhrases hides the word after "<secret word> is" or
// "<secret word> was", unless that word is ordinary prose ("the password
// is required").
func findPasswordPhrases(s string, out []span) []span {
	// The next " is " and " was " are each remembered until passed, so a
	// text with many of one and none of the other is read once, not once
	// per occurrence.
	isAt, wasAt := -1, -1
	for from := 0; ; {
		isAt, wasAt = nextIndex(s, from, " is ", isAt), nextIndex(s, from, " was ", wasAt)
		i, n := isAt, len(" is ")
		if wasAt < isAt {
			i, n = wasAt, len(" was ")
		}
		if i == len(s) {
			return out
		}
		from = i + 1
		key := phraseKey(s[:i])
		if !key {
			var buf [foldedKeyLen]byte
			if fk, ok := foldedKey(s, i, &buf); ok {
				key = phraseKey(fk)
			}
		}
		if !key {
			continue
		}
		v := openQuote(s, i+n)
		ve := valueEnd(s, v)
		if ve > v && !proseWord(s[v:ve]) {
			out = append(out, span{v, ve, kindSecret})
			from = ve
		}
	}
}

// nextIndex is the index of the first sep at or after from, or len(s)
// when there is none; last is the answer of the previous call, kept while
// it still lies at or after from.
func nextIndex(s string, from int, sep string, last int) int {
	if last >= from {
		return last
	}
	if i := strings.Index(s[from:], sep); i >= 0 {
		return from + i
	}
	return len(s)
}

// phraseKey reports whether before ends in one of phraseKeys, not glued
// to a longer word.
func phraseKey[T ~string | ~[]byte](before T) bool {
	for _, k := range phraseKeys {
		if hasSuffixFold(before, k) && (len(before) == len(k) || !glued(before[len(before)-len(k)-1])) {
			return true
		}
	}
	return false
}

// proseWords are the words that follow "token:" or "password is" in an
// ordinary message. Only these survive there: any other value, an
// unknown lower-case word included, is hidden.
var proseWords = map[string]bool{
	"a": true, "absent": true, "also": true, "an": true, "and": true, "are": true, "be": true,
	"blank": true, "can": true, "cannot": true, "changed": true, "denied": true, "disabled": true,
	"empty": true, "enabled": true, "expired": true, "for": true, "forbidden": true, "from": true,
	"given": true, "has": true, "have": true, "hidden": true, "ignored": true, "in": true,
	"incorrect": true, "invalid": true, "is": true, "long": true, "malformed": true, "mismatch": true,
	"missing": true, "must": true, "needed": true, "nil": true, "no": true, "none": true, "not": true,
	"now": true, "null": true, "of": true, "ok": true, "omitted": true, "only": true, "optional": true,
	"or": true, "pending": true, "present": true, "provided": true, "redacted": true, "refused": true,
	"rejected": true, "required": true, "revoked": true, "rotated": true, "see": true, "set": true,
	"short": true, "should": true, "stale": true, "still": true, "the": true, "to": true, "too": true,
	"unauthorized": true, "unavailable": true, "unknown": true, "unset": true, "valid": true,
	"was": true, "weak": true, "will": true, "wrong": true, "yet": true,
}

// proseWord reports whether v, without trailing punctuation, is one of
// proseWords or a placeholder.
func proseWord(v string) bool {
	v = strings.TrimRight(v, ".,;:!?)")
	if v == "" {
		return true
	}
	for _, p := range placeholders {
		if v == p {
			return true
		}
	}
	return proseWords[v]
}
