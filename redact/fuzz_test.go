package redact

// Fuzzing: FuzzMessage checks the message rule, idempotence and that a
// planted secret of every rule's family never survives; FuzzNamesMessage
// the same rule and idempotence for a message redacted again with names
// seen, and that nothing but a seen name is kept; FuzzCheck that Check
// agrees with the rule. Both run far above 1,000
// executions a second on one core: Message is linear and allocation-free
// on clean text, and the inputs are strings the fuzzer keeps short.
//
//	go test ./redact -run '^$' -fuzz '^FuzzMessage$' -fuzztime 30s -fuzzminimizetime 5s
//
// -fuzzminimizetime bounds how long a failing input is shrunk.

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzMessage(f *testing.F) {
	for _, s := range []string{
		"", "spec.chat.channel: required", "GET https://h.example:8443/x from 10.0.0.1",
		"[2001:db8::1]:80 fe80::1%eth0", "alice@example.com", "Bearer abc", "password=x token: y",
		"0123456789abcdef0123456789abcdef", "eyJa.b.c", "a\nb\tc\xff", "1.2.3.456", "x [url] y",
		strings.Repeat("é", 400), "basic dXNlcjpwYXNz", `{"token":"a b"}`,
	} {
		f.Add(s, 0)
		f.Add(s, 17)
	}
	f.Fuzz(func(t *testing.T, s string, max int) {
		out := messageMax(s, max%4096)
		checkInvariants(t, s, max%4096, out)
		if Check(out, max%4096) != nil || messageMax(out, max%4096) != out {
			t.Fatalf("output %q is not clean", out)
		}
		// A planted secret, chosen by the input, never survives when the
		// message is long enough to keep the text around it.
		secret := plantable[len(s)%len(plantable)]
		at := 0
		if len(s) > 0 {
			at = (max & 0x7fffffff) % (len(s) + 1)
		}
		planted := s[:at] + " " + secret + " " + s[at:]
		if got := messageMax(planted, 1<<16); strings.Contains(got, secret) {
			t.Fatalf("planted %q survives in %q", secret, got)
		}
	})
}

// FuzzNamesMessage redacts a kept message again with the names in the
// input's first line seen (one namespace/name per space): the result
// obeys the message rule, a second pass changes nothing, and whatever
// Message would still hide in it lies inside one of those names.
func FuzzNamesMessage(f *testing.F) {
	for _, s := range []string{
		"shop/x-10.0.0.7\nrequirement loop: shop/u -> shop/x-10.0.0.7 -> shop/y-10.0.0.8",
		"team-a/backup-10.0.0.7\ntarget ConfigMap team-a/backup-10.0.0.7 (v1) was deleted. password=x",
		"a/0123456789abcdef0123456789abcdef b/glpat-0123456789abcdefghij\na/0123456789abcdef0123456789abcdef:8080 b/glpat-0123456789abcdefghij.",
		"\nAccountName=x;AccountKey=y fe80%3A%3A1%25eth0 Xk9mP2qL7vNw",
	} {
		f.Add(s, 0)
	}
	f.Fuzz(func(t *testing.T, s string, max int) {
		head, text, _ := strings.Cut(s, "\n")
		refs := strings.Fields(head)
		seen := Names(func(n string) bool {
			for _, r := range refs {
				ns, name, _ := strings.Cut(r, "/")
				if NamesObject(n, ns, name) {
					return true
				}
			}
			return false
		})
		limit := limitOf(max % 4096)
		out := message(text, limit, seen)
		if err := Check(out, limit); err != nil || !isNormal(out) {
			t.Fatalf("%q breaks the message rule: %v", out, err)
		}
		if again := message(out, limit, seen); again != out {
			t.Fatalf("not idempotent for %q:\n once: %q\ntwice: %q", text, out, again)
		}
		var shown []string
		for _, r := range refs {
			ns, name, _ := strings.Cut(r, "/")
			shown = append(shown, r, ns, name)
		}
		for _, sp := range scan(out, nil) {
			if !withinOccurrence(out, sp, shown) {
				t.Fatalf("%q keeps %q, which no seen name covers (seen %v)", out, out[sp.start:sp.end], refs)
			}
		}
	})
}

func FuzzCheck(f *testing.F) {
	f.Add("ok", 0)
	f.Add("a\nb", 3)
	f.Add("a\xffb", 1)
	f.Fuzz(func(t *testing.T, s string, max int) {
		limit := max
		if limit <= 0 {
			limit = DefaultMaxBytes
		}
		err := Check(s, max)
		ok := len(s) <= limit && utf8.ValidString(s) && !strings.ContainsAny(s, "\n\r\t\x00\u2028\u2029\u0085")
		if err == nil && !ok {
			t.Fatalf("Check(%q, %d) passed a message that breaks the rule", s, max)
		}
		if err := Check(messageMax(s, max), max); err != nil {
			t.Fatalf("Message output fails Check: %v", err)
		}
	})
}

// plantable holds one positive example of every rule's family: a secret
// planted between spaces must be hidden whatever surrounds it.
var plantable = func() []string {
	var out []string
	for _, r := range rules {
		if r.name == "password-phrase" {
			continue // needs its key word before it
		}
		out = append(out, ruleExamples[r.name].positive[0])
	}
	return out
}()
