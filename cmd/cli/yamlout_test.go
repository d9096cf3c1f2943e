package cli

import (
	"bufio"
	"regexp"
	"strings"
	"testing"

	"pgregory.net/rapid"
	"sigs.k8s.io/yaml"
)

// Whatever a message, reason or name holds, the hand-written YAML reads
// back as the same string.
func TestYAMLString_RoundTrips(t *testing.T) {
	check := func(t interface{ Fatalf(string, ...any) }, s string) {
		var b strings.Builder
		w := bufio.NewWriter(&b)
		w.WriteString("k: ")
		yamlString(w, s)
		w.Flush()
		var got map[string]string
		if err := yaml.Unmarshal([]byte(b.String()), &got); err != nil {
			t.Fatalf("%q -> %q: %v", s, b.String(), err)
		}
		if got["k"] != s {
			t.Fatalf("%q came back as %q (yaml %q)", s, got["k"], b.String())
		}
	}
	for _, s := range []string{"", "OK", "True", "true", "no", "n", "null", "~", "1", "1.5", "0x1F", "-", "a: b", "a:", "#x",
		"Accepted:ChannelConflict", "team-a/ghost", "'q'", `"q"`, "tab\there", "line\nbreak", "ünïcode", "1e3", "2026-11-30", ".inf", "<<"} {
		check(t, s)
	}
	rapid.Check(t, func(t *rapid.T) {
		check(t, rapid.String().Draw(t, "s"))
	})
}

// TestIsPlainSafe_IsTheExpression holds the hand-written test of a plain
// scalar to the regular expression it stands for, on strings drawn from
// the characters at the edges of its classes as well as on any string.
func TestIsPlainSafe_IsTheExpression(t *testing.T) {
	plain := regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.:/-]*$`)
	edges := []rune("@AZ[`az{_09/:.-;,+ \x00\u00e9\u212a")
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.OneOf(rapid.String(),
			rapid.StringOf(rapid.SampledFrom(edges))).Draw(t, "s")
		if got, want := isPlainSafe(s), plain.MatchString(s); got != want {
			t.Fatalf("isPlainSafe(%q) = %v, the expression says %v", s, got, want)
		}
	})
}
