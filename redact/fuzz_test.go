package redact

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
		f.Add(s, 0, "team-b")
		f.Add(s, 17, "l] [")
	}
	f.Fuzz(func(t *testing.T, s string, max int, hide string) {
		opts := Options{MaxBytes: max % 4096, Hide: []string{hide, "team-b"}}
		out := Message(s, opts)
		checkInvariants(t, s, opts, out)
		if Check(out, opts.MaxBytes) != nil || !Clean(out, opts) {
			t.Fatalf("output %q is not clean", out)
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
		if err := Check(Message(s, Options{MaxBytes: max}), max); err != nil {
			t.Fatalf("Message output fails Check: %v", err)
		}
	})
}
