package safejson

import (
	"encoding/json"
	"fmt"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	yamlv3 "go.yaml.in/yaml/v3"
	"pgregory.net/rapid"
	"sigs.k8s.io/yaml"
)

// refused lists every character Escape writes as an escape.
func refused() []rune {
	var rs []rune
	for r := rune(0); r < 0x20; r++ {
		if r != '\t' && r != '\n' && r != '\r' {
			rs = append(rs, r)
		}
	}
	rs = append(rs, 0x7f)
	for r := rune(0x80); r <= 0x9f; r++ {
		rs = append(rs, r)
	}
	return append(rs, 0x2028, 0x2029, 0xfeff, 0xfffe, 0xffff)
}

type doc struct {
	Message string            `json:"message"`
	Fields  map[string]string `json:"fields"`
}

// readAsAPIServer reads an apply body as the API server's apply path
// does (sigs.k8s.io/yaml, YAML 1.1), and decodes the JSON it gives.
func readAsAPIServer(body []byte) (doc, error) {
	var d doc
	js, err := yaml.YAMLToJSON(body)
	if err != nil {
		return d, err
	}
	return d, json.Unmarshal(js, &d)
}

// readAsYAMLv3 reads a body with go.yaml.in/yaml/v3 (YAML 1.2).
func readAsYAMLv3(body []byte) (doc, error) {
	var d doc
	return d, yamlv3.Unmarshal(body, &d)
}

// Each character a YAML reader refuses or misreads, in a value and in a
// key, comes back as itself through both readers once escaped.
func TestMarshal_EveryRefusedCharacter_ReadBackAsItself(t *testing.T) {
	for _, r := range refused() {
		t.Run(fmt.Sprintf("U+%04X", r), func(t *testing.T) {
			s := "rate 0.5" + string(r) + "x"
			want := doc{Message: s, Fields: map[string]string{s: s}}
			body, err := Marshal(want)
			require.NoError(t, err)
			for name, read := range map[string]func([]byte) (doc, error){"sigs.k8s.io/yaml": readAsAPIServer, "yaml.v3": readAsYAMLv3} {
				got, err := read(body)
				require.NoError(t, err, "%s refused %s", name, body)
				assert.Equal(t, want, got, "%s read %s", name, body)
			}
		})
	}
}

// encoding/json alone leaves DEL, the C1 controls and the noncharacters
// raw, and the API server's reader refuses each of them, or reads NEL as
// a line break: the escape is needed.
func TestJSONMarshal_LeavesCharactersTheAPIServerRefuses(t *testing.T) {
	for _, r := range []rune{0x7f, 0x80, 0x85, 0x9c, 0x9f, 0xfffe, 0xffff} {
		want := doc{Message: "a" + string(r) + "b"}
		body, err := json.Marshal(want)
		require.NoError(t, err)
		got, err := readAsAPIServer(body)
		assert.True(t, err != nil || !equalDocs(got, want), "U+%04X: read back as itself without an escape", r)
	}
}

func TestEscape_NothingToEscape_ReturnsItsInput(t *testing.T) {
	in := []byte(`{"message":"a \u009c b","tab":"\t","emoji":"😀 é ✓"}` + "\n")
	allocs := testing.AllocsPerRun(10, func() { _ = Escape(in) })
	assert.Zero(t, allocs)
	out := Escape(in)
	assert.Equal(t, &in[0], &out[0], "the same slice")
}

func TestEscape_WhitespaceOutsideStringsKept(t *testing.T) {
	in, err := json.MarshalIndent(doc{Message: "\u009c"}, "", "\t")
	require.NoError(t, err)
	out := Escape(in)
	assert.Equal(t, "{\n\t\"message\": \"\\u009c\",\n\t\"fields\": null\n}", string(out))
	crlf := []byte("{\r\n\"a\": 1}")
	assert.Equal(t, crlf, Escape(crlf))
}

func TestEscape_NotUTF8_BecomesReplacementCharacter(t *testing.T) {
	assert.Equal(t, `"a\ufffdb\ufffd"`, string(Escape([]byte("\"a\xffb\xc2\""))))
	assert.Equal(t, `"\ufffd"`, string(Escape([]byte("\"\x80\""))), "a lone continuation byte")
	assert.Equal(t, `"\u009ca\ufffd\u2028é"`, string(Escape([]byte("\"\u009ca\xff\u2028é\""))), "after an escape too")
}

// anyText draws strings rich in what YAML readers treat specially:
// controls, separators, marks, line breaks, characters beyond U+FFFF.
func anyText() *rapid.Generator[string] {
	special := rapid.SampledFrom(append(refused(), '\t', '\n', '\r', '"', '\\', '\'', ':', '#', '&', '*', '!', '|', '>', '%', '@',
		'`', '{', '}', '[', ']', ',', '-', '?', ' ', 0xa0, 0xd7ff, 0xe000, 0xfffd, 0x10000, 0x1f600, 0x10ffff))
	return rapid.OneOf(
		rapid.String(),
		rapid.StringOf(rapid.OneOf(special, rapid.Rune())),
		rapid.StringOf(special),
	)
}

// Whatever the text, Marshal's output is read by both YAML readers as
// the value it encodes.
func TestMarshal_PropertyReadBackByYAMLReaders(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		want := doc{Message: anyText().Draw(t, "message"), Fields: rapid.MapOf(anyText(), anyText()).Draw(t, "fields")}
		body, err := Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		if !utf8.Valid(body) {
			t.Fatalf("not UTF-8: %q", body)
		}
		var viaJSON doc
		if err := json.Unmarshal(body, &viaJSON); err != nil {
			t.Fatalf("not JSON: %v", err)
		}
		for name, read := range map[string]func([]byte) (doc, error){"sigs.k8s.io/yaml": readAsAPIServer, "yaml.v3": readAsYAMLv3} {
			got, err := read(body)
			if err != nil {
				t.Fatalf("%s refused %q: %v", name, body, err)
			}
			if !equalDocs(got, viaJSON) {
				t.Fatalf("%s read %q as %q, JSON as %q", name, body, got, viaJSON)
			}
		}
		if utf8.ValidString(want.Message) && !equalDocs(viaJSON, want) && validKeys(want) {
			t.Fatalf("the value changed: %q became %q", want, viaJSON)
		}
	})
}

// equalDocs compares two docs, an empty map equal to a nil one.
func equalDocs(a, b doc) bool {
	if a.Message != b.Message || len(a.Fields) != len(b.Fields) {
		return false
	}
	for k, v := range a.Fields {
		if w, ok := b.Fields[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// validKeys reports whether every text of d is UTF-8: only then does
// JSON hold it unchanged.
func validKeys(d doc) bool {
	for k, v := range d.Fields {
		if !utf8.ValidString(k) || !utf8.ValidString(v) {
			return false
		}
	}
	return true
}

func FuzzMarshal(f *testing.F) {
	for _, s := range []string{"", "plain", "a\u009cb", "\u0085", "\u2028\u2029", "\ufeff", "\uffff", "\x7f", "\xff", "😀"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		body, err := Marshal(doc{Message: s})
		if err != nil {
			t.Fatal(err)
		}
		var viaJSON doc
		if err := json.Unmarshal(body, &viaJSON); err != nil {
			t.Fatalf("not JSON: %v", err)
		}
		if utf8.ValidString(s) && viaJSON.Message != s {
			t.Fatalf("the value changed: %q became %q", s, viaJSON.Message)
		}
		got, err := readAsAPIServer(body)
		if err != nil {
			t.Fatalf("refused %q: %v", body, err)
		}
		if got.Message != viaJSON.Message {
			t.Fatalf("read %q as %q, JSON as %q", body, got.Message, viaJSON.Message)
		}
	})
}
