package redact

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"
)

// objects is a Names that sees the given namespace/name pairs.
func objects(refs ...string) Names {
	return func(n string) bool {
		for _, r := range refs {
			ns, name, _ := strings.Cut(r, "/")
			if NamesObject(n, ns, name) {
				return true
			}
		}
		return false
	}
}

// A message kept from a stored condition is redacted again: the names the
// reader sees stay as written, everything else is hidden as Message
// hides it.
func TestNames_Message(t *testing.T) {
	const hex = "0123456789abcdef0123456789abcdef"
	seen := objects("shop/x-10.0.0.7", "shop/"+hex, "team-a/backup-10.0.0.7", "shop/glpat-0123456789abcdefghij")
	for _, tc := range []struct{ name, in, want string }{
		// Names the reader sees, as the engine wrote them.
		{"LoopPath", "requirement loop: shop/u -> shop/x-10.0.0.7 -> shop/" + hex + " -> shop/x-10.0.0.7",
			"requirement loop: shop/u -> shop/x-10.0.0.7 -> shop/" + hex + " -> shop/x-10.0.0.7"},
		{"TargetWithFullStop", "target ConfigMap team-a/backup-10.0.0.7 (v1) was deleted.",
			"target ConfigMap team-a/backup-10.0.0.7 (v1) was deleted."},
		{"BareName", `required offering "x-10.0.0.7" has no namespace`, `required offering "x-10.0.0.7" has no namespace`},
		{"NameInAnotherNamespace", "other/x-10.0.0.7 is named", "other/x-10.0.0.7 is named"},
		{"TokenShapedName", "shop/glpat-0123456789abcdefghij is not ready", "shop/glpat-0123456789abcdefghij is not ready"},
		{"EmptyNamespace", "cannot read required offering /x-10.0.0.7", "cannot read required offering /x-10.0.0.7"},
		// Text that is not a name the reader sees.
		{"UnseenName", "shop/y-10.0.0.8 -> shop/x-10.0.0.7", "shop/y-[address] -> shop/x-10.0.0.7"},
		{"UnseenPartOfPath", "x-10.0.0.7/10.0.0.8", "x-10.0.0.7/[address]"},
		{"PortAfterName", "dial x-10.0.0.7:8080 failed", "dial [address] failed"},
		{"LongerName", "shop/x-10.0.0.7.evil failed", "shop/x-[address].evil failed"},
		{"GluedToPath", "a/b/x-10.0.0.8", "a/b/x-[address]"},
		{"KeyValueEvenIfNamed", "password=x-10.0.0.7 token: " + hex, "password=[secret] token: [secret]"},
		{"PhraseEvenIfNamed", "the password is x-10.0.0.7", "the password is [secret]"},
		{"BearerEvenIfNamed", "Bearer x-10.0.0.7", "Bearer [secret]"},
		{"PlantedSecrets", "ghp_16C7e42F292c6912E7710c838347Ae178B4a at 10.0.0.7 for ops@corp.example.com",
			"[secret] at [address] for [email]"},
		{"OneLine", "two\nlines", "two lines"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := seen.Message(tc.in)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, got, seen.Message(got), "a second pass changes nothing")
		})
	}
}

// Without names, Names.Message is Message; a name no one sees is hidden.
func TestNames_NilIsMessage(t *testing.T) {
	for _, s := range []string{"shop/x-10.0.0.7", "password=x", "a\nb", ""} {
		assert.Equal(t, Message(s), Names(nil).Message(s), s)
	}
	assert.Equal(t, "shop/x-[address]", objects("shop/other").Message("shop/x-10.0.0.7"))
}

func TestNamesObject(t *testing.T) {
	for _, tc := range []struct {
		n    string
		want bool
	}{
		{"shop/db", true}, {"db", true}, {"shop", true},
		{"", false}, {"shop/", false}, {"/db", false}, {"shop/dbx", false}, {"shopx/db", false}, {"shop-db", false}, {"shop/db/db", false},
	} {
		assert.Equal(t, tc.want, NamesObject(tc.n, "shop", "db"), tc.n)
	}
	assert.False(t, NamesObject("", "", ""))
	assert.False(t, NamesObject("x", "", ""))
}

// A cut may end inside a seen name, whose beginning the reader sees too,
// but not where the shortened name reads as something else: x-1.2.3.45
// cut to x-1.2.3.4 would show an address no one wrote, so the cut moves
// back.
func TestNames_CutNeverMakesAFinding(t *testing.T) {
	seen := objects("shop/x-1.2.3.45")
	s := strings.Repeat("a ", 10) + "shop/x-1.2.3.45 and more"
	for limit := 0; limit <= len(s)+3; limit++ {
		got := message(s, limit, seen)
		assert.LessOrEqual(t, len(got), max(limit, 0), limit)
		if strings.Contains(got, "1.2.3.4") {
			assert.Contains(t, got, "shop/x-1.2.3.45", "limit %d: %q", limit, got)
		}
		assert.Equal(t, got, message(got, limit, seen), "limit %d", limit)
	}
	at := strings.Index(s, "5 and")
	assert.Equal(t, "a a a a a a a a a a shop/x-…", message(s, at+len(ellipsis), seen), "x-1.2.3.4 is not the name")
}

// namePool mixes names shaped like findings with plain ones.
var namePool = []string{
	"shop/x-10.0.0.7", "shop/0123456789abcdef0123456789abcdef", "team-a/backup-10.0.0.7", "team-a/db",
	"other/glpat-0123456789abcdefghij", "shop/1.2.3.4", "ns/a", "shop/xoxb-123456789012-abcdefghijkl",
}

func genNames(t *rapid.T) ([]string, Names) {
	refs := rapid.SliceOfDistinct(rapid.SampledFrom(namePool), rapid.ID).Draw(t, "seen")
	return refs, objects(refs...)
}

// genNamedText mixes arbitrary text, the pool's names and their parts.
func genNamedText(t *rapid.T) string {
	pieces := append([]string{" ", "/", ".", ":8080", "-", "password=", "the password is ", " -> ", "\n"}, namePool...)
	for _, r := range namePool {
		ns, name, _ := strings.Cut(r, "/")
		pieces = append(pieces, ns, name)
	}
	return rapid.OneOf(
		rapid.Just(genArbitrary(t)),
		rapid.Map(rapid.SliceOfN(rapid.SampledFrom(pieces), 0, 30), func(p []string) string { return strings.Join(p, "") }),
	).Draw(t, "s")
}

// Names.Message keeps the message rule and is idempotent, whatever the
// names seen, and what it leaves that Message would hide lies inside a
// name the reader sees: nothing else is ever kept.
func TestNames_PropertyKeepsOnlySeenNames(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		refs, seen := genNames(t)
		s := genNamedText(t)
		limit := genMax(t)
		out := message(s, limitOf(limit), seen)
		if err := Check(out, limitOf(limit)); err != nil || !isNormal(out) {
			t.Fatalf("%q breaks the message rule: %v", out, err)
		}
		if again := message(out, limitOf(limit), seen); again != out {
			t.Fatalf("not idempotent for %q:\n once: %q\ntwice: %q", s, out, again)
		}
		var shown []string // every way of naming a seen object
		for _, r := range refs {
			ns, name, _ := strings.Cut(r, "/")
			shown = append(shown, r, ns, name)
		}
		for _, sp := range scan(out, nil) {
			if !withinOccurrence(out, sp, shown) {
				t.Fatalf("%q keeps %q, which no seen name covers (seen %v, input %q)", out, out[sp.start:sp.end], refs, s)
			}
		}
	})
}

// withinOccurrence reports whether sp lies inside an occurrence of one of
// names in s.
func withinOccurrence(s string, sp span, names []string) bool {
	for _, n := range names {
		if n == "" {
			continue // a ref without a slash has no second part
		}
		for i := 0; ; {
			j := strings.Index(s[i:], n)
			if j < 0 {
				break
			}
			j += i
			if j <= sp.start && sp.end <= j+len(n) {
				return true
			}
			i = j + 1
		}
	}
	return false
}

// A message built as the engine builds one (its own words, names the
// reader sees, and text from elsewhere passed through Message) comes back
// from Names.Message unchanged: a held message the engine wrote is not
// rewritten.
func TestNames_PropertyBuiltMessageUnchanged(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		refs, seen := genNames(t)
		var parts []string
		for range rapid.IntRange(1, 8).Draw(t, "parts") {
			switch {
			case len(refs) > 0 && rapid.Bool().Draw(t, "isName"):
				parts = append(parts, Name(rapid.SampledFrom(refs).Draw(t, "name")))
			case rapid.Bool().Draw(t, "isForeign"):
				parts = append(parts, "("+Message(genCanary(t).text)+")")
			default:
				parts = append(parts, genSafeText(t, "own"))
			}
		}
		m := Fit(strings.Join(parts, rapid.SampledFrom([]string{" -> ", ", ", "; ", " "}).Draw(t, "sep")), DefaultMaxBytes)
		m = normalize(m)
		if got := seen.Message(m); got != m {
			t.Fatalf("a built message changed:\n in: %q\nout: %q", m, got)
		}
	})
}
