package redact

import (
	"fmt"
	"net/netip"
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"
)

// checkInvariants asserts what every Message result must satisfy.
func checkInvariants(t interface{ Fatalf(string, ...any) }, in string, max int, out string) {
	if limit := limitOf(max); len(out) > limit {
		t.Fatalf("%d bytes, limit %d: %q", len(out), limit, out)
	}
	if !utf8.ValidString(out) {
		t.Fatalf("invalid UTF-8: %q", out)
	}
	if err := Check(out, limitOf(max)); err != nil {
		t.Fatalf("Check(%q) = %v", out, err)
	}
	if !isNormal(out) {
		t.Fatalf("not normalized: %q", out)
	}
	if again := messageMax(out, max); again != out {
		t.Fatalf("not idempotent for %q:\n once: %q\ntwice: %q", in, out, again)
	}
}

// limitOf is the limit a test's max stands for: zero or negative means
// the default, as for Fit and Check.
func limitOf(max int) int {
	if max <= 0 {
		return DefaultMaxBytes
	}
	return max
}

// messageMax is message at the limit max stands for.
func messageMax(s string, max int) string { return message(s, limitOf(max), nil) }

// inside reports whether [i, j) lies within one placeholder.
func inside(ph []span, i, j int) bool {
	if p, ok := placeholderAt(ph, i+1); ok {
		return p.start <= i && j <= p.end
	}
	return false
}

// containsOutsidePlaceholders reports whether h occurs in s other than
// within one placeholder ("secret" in "[secret]" is not a leak).
func containsOutsidePlaceholders(s, h string) bool {
	ph := findPlaceholders(s)
	for i := 0; i+len(h) <= len(s); i++ {
		if s[i:i+len(h)] == h && !inside(ph, i, i+len(h)) {
			return true
		}
	}
	return false
}

// Words that must survive; none of them contains the canary marker "q9".
var safeWords = []string{
	"spec.chat.channel:", "spec.agent.backendRef.name", "status.conditions[2].reason",
	"generation", "2", "is", "invalid,", "serving", "1:", "team-a/late", "AgentBackend",
	"team-a/echo", "Accepted:ChannelConflict", `rate "cpuHour" ("0.031"):`, "1.0",
	"v0.37.2", "2026-11-30T10:00:00Z", "my.app", "Ready", "BackendReachable:Pending",
	"the", "operator's", "log", "has", "cause", "…", "Grüße", "世界", "(x)", "a;", "b,",
}

func genSafeText(t *rapid.T, label string) string {
	words := rapid.SliceOfN(rapid.SampledFrom(safeWords), 0, 40).Draw(t, label)
	return strings.Join(words, " ")
}

func TestMessage_PropertySafeTextUntouched(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genSafeText(t, "words")
		if got := message(s, 1<<20, nil); got != s {
			t.Fatalf("changed:\n in: %q\nout: %q", s, got)
		}
	})
}

func genArbitrary(t *rapid.T) string {
	return rapid.OneOf(
		rapid.String(),
		rapid.StringMatching(`[ -~\t\n]{0,200}`),
		rapid.Map(rapid.SliceOfN(rapid.Byte(), 0, 300), func(b []byte) string { return string(b) }),
		rapid.Map(rapid.SliceOfN(rapid.SampledFrom([]string{
			"http", "://", ":", "::", ".", "1", "255", "a", "f", "@", "x.io", "=", " ", "\n", "[", "]",
			"[url]", "[secret]", "[hidden]", "…", "password", "Bearer ", "basic ", "eyJ", "%", "-", "_",
			"AbCdEfGh0123", "0123456789abcdef", "localhost", "\"", "'", "/", "\xff", "\u2028",
		}), 0, 80), func(p []string) string { return strings.Join(p, "") }),
	).Draw(t, "s")
}

func genMax(t *rapid.T) int {
	return rapid.OneOf(rapid.Just(0), rapid.IntRange(-2, 40), rapid.IntRange(41, 2000)).Draw(t, "max")
}

func TestMessage_PropertyInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genArbitrary(t)
		max := genMax(t)
		checkInvariants(t, s, max, messageMax(s, max))
	})
}

// canary is a planted finding and the text that must not survive it.
type canary struct{ text, secret string }

func genMark(t *rapid.T, label string) string {
	return "q9" + rapid.StringMatching(`[a-z0-9]{6,10}`).Draw(t, label)
}

func genCanary(t *rapid.T) canary {
	m := genMark(t, "mark")
	switch rapid.IntRange(0, 12).Draw(t, "class") {
	case 0:
		scheme := rapid.SampledFrom([]string{"http", "https", "ftp", "redis", "git+ssh"}).Draw(t, "scheme")
		return canary{scheme + "://" + m + ".example/p?x=1", m}
	case 1:
		ip := fmt.Sprintf("%d.%d.%d.%d", rapid.IntRange(0, 255).Draw(t, "a"), rapid.IntRange(0, 255).Draw(t, "b"),
			rapid.IntRange(0, 255).Draw(t, "c"), rapid.IntRange(0, 255).Draw(t, "d"))
		if rapid.Bool().Draw(t, "port") {
			ip += fmt.Sprintf(":%d", rapid.IntRange(0, 65535).Draw(t, "p"))
		}
		return canary{ip, ip}
	case 2:
		groups := make([]string, 8)
		for i := range groups {
			groups[i] = fmt.Sprintf("%x", rapid.IntRange(0, 0xffff).Draw(t, "g"))
		}
		ip := strings.Join(groups, ":")
		switch rapid.IntRange(0, 2).Draw(t, "form") {
		case 1:
			ip = groups[0] + "::" + groups[7]
		case 2:
			// The canonical text of a random address, as Go prints it:
			// compressed, or IPv4-mapped.
			var b [16]byte
			for i := range b {
				b[i] = byte(rapid.IntRange(0, 3).Draw(t, "byte") * rapid.IntRange(0, 85).Draw(t, "scale"))
			}
			if rapid.Bool().Draw(t, "mapped") {
				b = [16]byte{10: 0xff, 11: 0xff, 12: b[12], 13: b[13], 14: b[14], 15: b[15]}
			}
			ip = netip.AddrFrom16(b).String()
			if ip == "::" {
				ip = "::1"
			}
		}
		if rapid.Bool().Draw(t, "bracket") {
			return canary{"[" + ip + "]:443", ip}
		}
		return canary{ip, ip}
	case 3:
		return canary{m + "@corp.example.com", m}
	case 4:
		return canary{m + ".svc.cluster.local:8443", m}
	case 5:
		return canary{"localhost:" + fmt.Sprint(rapid.IntRange(1, 65535).Draw(t, "p")), "localhost:"}
	case 6:
		return canary{rapid.SampledFrom([]string{"Bearer ", "bearer ", "BEARER "}).Draw(t, "scheme") + m, m}
	case 7:
		key := rapid.SampledFrom(secretKeys[:]).Draw(t, "key")
		if rapid.Bool().Draw(t, "upper") {
			key = strings.ToUpper(key)
		}
		sep := rapid.SampledFrom([]string{"=", ": ", " = ", ":"}).Draw(t, "sep")
		return canary{key + sep + m, m}
	case 8:
		hex := rapid.StringMatching(`[0-9a-f]{32,48}`).Draw(t, "hex")
		return canary{hex, hex}
	case 9:
		b := rapid.StringMatching(`[A-Za-z0-9+/]{38,60}`).Draw(t, "b64")
		b = "aZ" + b
		return canary{b, b}
	case 10:
		jwt := "eyJ" + m + "." + m + "x." + m + "y"
		return canary{jwt, jwt}
	case 11:
		return canary{`{"password":"` + m + ` ` + m + `"}`, m}
	default:
		return canary{"basic " + "cTlx" + strings.Repeat("dXNlcjpwYXNz", rapid.IntRange(1, 4).Draw(t, "n")), "cTlx"}
	}
}

var separators = []string{" ", "\n", "\t", ", ", " (", ") ", "; ", ": ", " \"", "\" ", " <", "> "}

// glue is punctuation that may touch a finding on either side without
// saving it; only a letter or digit joins a finding into a longer word.
var glue = []string{"", "=", "/", "_", "-", ".", ":", ",", ";", "(", ")", "[", "]", "'", "\"", "<", ">",
	"!", "?", "#", "%", "&", "*", "+", "|", "~", "\\", "{", "}", "é", "…", "@", "$", "^", "`", "\u2028"}

// Canaries planted in safe text never come out, at any limit, whatever
// the neighbours.
func TestMessage_PropertyCanariesHidden(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var b strings.Builder
		var secrets []string
		for i := range rapid.IntRange(1, 6).Draw(t, "n") {
			b.WriteString(genSafeText(t, fmt.Sprint("before", i)))
			b.WriteString(rapid.SampledFrom(separators).Draw(t, "sep"))
			b.WriteString(rapid.SampledFrom(glue).Draw(t, "glue"))
			c := genCanary(t)
			b.WriteString(c.text)
			secrets = append(secrets, c.secret)
			b.WriteString(rapid.SampledFrom(glue).Draw(t, "glue"))
			b.WriteString(rapid.SampledFrom(separators).Draw(t, "sep"))
		}
		b.WriteString(genSafeText(t, "after"))
		max := rapid.OneOf(rapid.Just(0), rapid.IntRange(3, 300)).Draw(t, "max")
		in := b.String()
		out := messageMax(in, max)
		checkInvariants(t, in, max, out)
		for _, s := range secrets {
			if containsOutsidePlaceholders(out, s) {
				t.Fatalf("%q leaked from %q:\n%q", s, in, out)
			}
		}
	})
}

// Cutting text with nothing to hide keeps a prefix: the result is the text
// itself or a prefix of it (without a trailing space) followed by "…".
func TestMessage_PropertyCutKeepsPrefix(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genSafeText(t, "words")
		limit := rapid.IntRange(3, 400).Draw(t, "limit")
		out := messageMax(s, limit)
		if out == s {
			if len(s) > limit {
				t.Fatalf("over-long text %d > %d returned whole", len(s), limit)
			}
			return
		}
		kept, ok := strings.CutSuffix(out, ellipsis)
		if !ok || !strings.HasPrefix(s, kept) || strings.HasSuffix(kept, " ") {
			t.Fatalf("%q is not a cut of %q", out, s)
		}
		if len(s) <= limit {
			t.Fatalf("text within the limit was cut: %q", out)
		}
	})
}
