package redact

import (
	"fmt"
	"strings"
	"testing"
)

// benchText builds a message of about n bytes from realistic condition
// text; dirty messages carry a finding of every class every ~500 bytes.
func benchText(n int, dirty bool) string {
	clean := "AgentBackend team-a/echo generation 4 is invalid, serving generation 3: spec.url: required; spec.chat.channel: \"x y\" contains white space; "
	bad := "GET https://agent.team-b.svc:8443/card from 10.0.0.7 and [2001:db8::1]:80 by alice@example.com with Bearer abc.def password=hunter2 " +
		"digest 0123456789abcdef0123456789abcdef key QWxhZGRpbjpvcGVuIHNlc2FtZQ0123456789abcdef; "
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		if dirty && i%4 == 0 {
			b.WriteString(bad)
		} else {
			b.WriteString(clean)
		}
	}
	return strings.TrimSpace(b.String()[:n])
}

func BenchmarkMessage(b *testing.B) {
	for _, size := range []int{64, 1 << 10, 32 << 10} {
		for _, dirty := range []bool{false, true} {
			name := fmt.Sprintf("%dB/clean", size)
			if dirty {
				name = fmt.Sprintf("%dB/dirty", size)
			}
			s := benchText(size, dirty)
			b.Run(name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(s)))
				for b.Loop() {
					_ = message(s, 1<<20, nil)
				}
				reportPerByte(b, len(s))
			})
		}
	}
}

// The default limit on a big input: the whole input is still scanned.
func BenchmarkMessage_DefaultLimit(b *testing.B) {
	for _, size := range []int{32 << 10, 1 << 20} {
		s := benchText(size, true)
		b.Run(fmt.Sprintf("%dB", size), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				_ = Message(s)
			}
			reportPerByte(b, len(s))
		})
	}
}

// Shapes that would be quadratic in a careless scanner, at two sizes; the
// ns/byte of the two must stay about equal.
func BenchmarkMessage_Pathological(b *testing.B) {
	shapes := map[string]func(n int) string{
		"colons":      func(n int) string { return strings.Repeat(":", n) },
		"dots":        func(n int) string { return strings.Repeat("1.", n/2) },
		"ats":         func(n int) string { return strings.Repeat("a@", n/2) },
		"keys":        func(n int) string { return strings.Repeat("token=", n/6) },
		"hideChain":   func(n int) string { return "a://b" + strings.Repeat(" x", n/2) },
		"hexLetters":  func(n int) string { return strings.Repeat("abcdef", n/6) },
		"newlines":    func(n int) string { return strings.Repeat("a\n", n/2) },
		"invalidUTF8": func(n int) string { return strings.Repeat("\xff", n) },
		"isPhrases":   func(n int) string { return strings.Repeat("x is ", n/5) },
		"digits":      func(n int) string { return strings.Repeat("host 167772167 ", n/15) },
	}
	for _, name := range []string{"colons", "dots", "ats", "keys", "hideChain", "hexLetters", "newlines", "invalidUTF8", "isPhrases", "digits"} {
		for _, size := range []int{32 << 10, 1 << 20} {
			s := shapes[name](size)
			b.Run(fmt.Sprintf("%s/%dB", name, size), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(s)))
				for b.Loop() {
					_ = Message(s)
				}
				reportPerByte(b, len(s))
			})
		}
	}
}

// reportPerByte adds ns/byte, the figure that must stay flat across sizes.
func reportPerByte(b *testing.B, n int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(max(n, 1)), "ns/byte")
}

// A kept message redacted again: one the engine wrote (a loop path whose
// names look like an address and a hex secret, all seen) and one with a
// planted secret. The first comes back as it is.
func BenchmarkNamesMessage(b *testing.B) {
	const hex = "0123456789abcdef0123456789abcdef"
	seen := Names(func(n string) bool {
		return NamesObject(n, "shop", "x-10.0.0.7") || NamesObject(n, "shop", hex) || NamesObject(n, "shop", "u")
	})
	kept := "requirement loop: shop/u -> shop/x-10.0.0.7 -> shop/" + hex + " -> shop/x-10.0.0.7"
	for name, s := range map[string]string{"engine": kept, "planted": kept + " (dial 10.0.0.9:5432 with password=hunter2)"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = seen.Message(s)
			}
		})
	}
}
