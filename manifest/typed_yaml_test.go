package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"
)

// richObject has a field of every kind the straight YAML decode fills,
// and of the kinds it gives back to the full reading.
type richObject struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Spec              richSpec `json:"spec"`
}

type richSpec struct {
	S        string            `json:"s"`
	B        bool              `json:"b"`
	I        int64             `json:"i"`
	I8       int8              `json:"i8"`
	U        uint32            `json:"u"`
	U8       uint8             `json:"u8"`
	P        *string           `json:"p"`
	PP       **int             `json:"pp"`
	L        []string          `json:"l"`
	M        map[string]string `json:"m"`
	MI       map[string]int    `json:"mi"`
	N        []richItem        `json:"nested"`
	T        metav1.Time       `json:"t"`
	D        metav1.Duration   `json:"d"`
	Raw      []byte            `json:"raw"`
	F        float64           `json:"f"`
	Any      any               `json:"any"`
	Text     textValue         `json:"text"`
	Skip     string            `json:"-"`
	Untagged string
	richEmbedded
	*richPointer
	*RichExported
	richTwin
	hidden string
}

// RichExported is reached through an embedded pointer the decoders set.
type RichExported struct {
	X string `json:"x"`
}

// richTwin's Dup is at the depth of richEmbedded's: encoding/json sets
// neither; richDeep's S is deeper than richSpec's own, which wins.
type richTwin struct {
	Dup string
	richDeep
}

type richDeep struct {
	S string `json:"s"`
}

type richEmbedded struct {
	E   string `json:"e"`
	Dup string
}

type richPointer struct {
	Q string `json:"q"`
}

type richItem struct {
	Name string `json:"name"`
	Port *int   `json:"port"`
}

// textValue decodes itself from text, as encoding/json lets a type do.
type textValue struct{ s string }

func (v *textValue) UnmarshalText(b []byte) error { v.s = string(b); return nil }

// richSlot hands out richObjects for x.example/v1 Rich.
func richSlot(got *[]any) Slot {
	return func(apiVersion, kind string) any {
		if apiVersion != "x.example/v1" || kind != "Rich" {
			return nil
		}
		v := new(richObject)
		*got = append(*got, v)
		return v
	}
}

// readRich reads data straight where NextTyped takes it, or in full
// only, into richObjects, and returns them, how many documents were
// decoded straight, and the first error's text.
func readRich(data []byte, straight bool) (objs []any, decoded int, problem string) {
	r := NewReader(bytes.NewReader(data))
	r.Limits = fuzzLimits
	var seen Identities
	var staged []any
	slot := richSlot(&staged)
	for {
		staged = staged[:0]
		var d *Document
		var typed bool
		var err error
		if straight {
			d, typed, err = r.NextTyped(&seen, slot)
		} else {
			d, err = r.Next()
		}
		if errors.Is(err, io.EOF) {
			return objs, decoded, ""
		}
		if err != nil {
			return objs, decoded, err.Error()
		}
		if typed {
			decoded++
			objs = append(objs, staged...)
			continue
		}
		err = d.ExpandNew(&seen, func(it *Document) error {
			var one []any
			v := richSlot(&one)(it.Header.APIVersion, it.Header.Kind)
			if v == nil {
				objs = append(objs, it.Header.String())
				return nil
			}
			if err := it.Unmarshal(v); err != nil {
				return err
			}
			objs = append(objs, v)
			return nil
		})
		if err != nil {
			return objs, decoded, err.Error()
		}
	}
}

// yamlScalars are spellings of scalars that YAML 1.1 (the full reading)
// and YAML 1.2 (the straight decode's parser) may read alike or not.
var yamlScalars = []string{
	"a", "word", "'quoted'", `"double"`, `""`, "''", "yes", "no", "on", "Off", "y", "n", "true", "false", "True",
	"null", "~", "Null", "1", "-1", "+1", "0", "012", "0x1F", "0o17", "1_000", "1.5", "1e3", ".5", "-.inf", ".nan",
	"300", "-129", "128", "256", "4294967296", "9223372036854775808", "2026-11-30", "2026-11-30T10:00:00Z",
	`"2026-11-30T10:00:00Z"`, "'2026-11-30T10:00:00+02:00'", "5m", "'1h30m'", `"soon"`, "!!str 12", "!!int '7'",
	"&a 3", "*a", "|\n    block\n    text", ">\n    folded\n    text", "[]", "{}", "[1, 2]", "{k: v}", "c2VjcmV0",
	"'it''s'", `"\u00e9"`, "-", "-x", "a b", "a: b", "#x", "x #c",
}

// genRichValue draws a value for a field, sometimes of the wrong shape.
func genRichValue(t *rapid.T, depth int, label string) string {
	switch rapid.IntRange(0, 5).Draw(t, label+" shape") {
	case 0:
		if depth < 2 {
			n := rapid.IntRange(0, 2).Draw(t, label+" items")
			var b strings.Builder
			for i := range n {
				fmt.Fprintf(&b, "\n%s- %s", strings.Repeat("  ", depth+2), genRichValue(t, depth+1, fmt.Sprintf("%s[%d]", label, i)))
			}
			if n == 0 {
				return "[]"
			}
			return b.String()
		}
	case 1:
		if depth < 2 {
			keys := rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"name", "port", "k", "K", "x", "yes"}), 0, 3, rapid.ID[string]).Draw(t, label+" keys")
			if len(keys) == 0 {
				return "{}"
			}
			var b strings.Builder
			for _, k := range keys {
				fmt.Fprintf(&b, "\n%s%s: %s", strings.Repeat("  ", depth+2), k, genRichValue(t, depth+1, label+"."+k))
			}
			return b.String()
		}
	}
	return rapid.SampledFrom(yamlScalars).Draw(t, label)
}

// The straight YAML decode gives the objects, or the error, that the full
// reading gives, for documents whose values take every spelling YAML has
// for a scalar, into fields of every kind; and it takes the plain ones.
func TestProperty_StraightYAMLIsTheFullReading(t *testing.T) {
	fields := []string{"s", "b", "i", "i8", "u", "u8", "p", "pp", "l", "m", "mi", "nested", "n", "t", "d", "raw", "f", "any", "text", "e", "q", "x", "Untagged", "S", "Skip", "-", "unknown", "hidden", "Dup"}
	rapid.Check(t, func(t *rapid.T) {
		var b strings.Builder
		b.WriteString("apiVersion: x.example/v1\nkind: Rich\nmetadata:\n  name: " + rapid.SampledFrom([]string{"a", "yes", "'b'", "1"}).Draw(t, "name") + "\n")
		if rapid.Bool().Draw(t, "labels") {
			b.WriteString("  labels: {app: x, App: y}\n")
		}
		b.WriteString("spec:\n")
		for _, f := range rapid.SliceOfNDistinct(rapid.SampledFrom(fields), 0, 6, rapid.ID[string]).Draw(t, "fields") {
			fmt.Fprintf(&b, "  %s: %s\n", f, genRichValue(t, 0, f))
		}
		if rapid.IntRange(0, 9).Draw(t, "repeat") == 0 {
			b.WriteString("  s: again\n")
		}
		data := []byte(b.String())
		want, _, wantErr := readRich(data, false)
		got, _, gotErr := readRich(data, true)
		if gotErr != wantErr || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s\nstraight: %s %v\nfull: %s %v", data, gotErr, show(got), wantErr, show(want))
		}
	})
}

// Plain values of every kind are decoded straight, not given back.
func TestNextTyped_YAMLOfEveryKindIsDecodedStraight(t *testing.T) {
	const doc = `apiVersion: x.example/v1
kind: Rich
metadata: {name: a, namespace: team, labels: {app: x}, creationTimestamp: "2026-11-30T10:00:00Z"}
spec:
  s: word
  b: true
  i: -12
  i8: 127
  u: 7
  u8: 255
  p: pointed
  pp: 3
  l: [a, "b"]
  m: {k: v}
  mi: {k: 1}
  nested:
  - name: x
    port: 80
  - {name: z}
  t: "2026-11-30T10:00:00Z"
  d: 1m30s
  Untagged: plain
  x: through an exported pointer
  any: ~
`
	want, _, wantErr := readRich([]byte(doc), false)
	got, decoded, gotErr := readRich([]byte(doc), true)
	if wantErr != "" || gotErr != "" || decoded != 1 {
		t.Fatalf("decoded %d: %s / %s", decoded, gotErr, wantErr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("straight: %v\nfull: %v", show(got), show(want))
	}
	o := got[0].(*richObject)
	_ = o.Spec.hidden // a field no key sets
	if o.Spec.RichExported == nil || o.Spec.X != "through an exported pointer" || *o.Spec.PP == nil || **o.Spec.PP != 3 || o.Spec.D.Duration.String() != "1m30s" {
		t.Fatalf("%+v", o.Spec)
	}
}

// What the straight decode gives back to the full reading, each a case
// the two readers could read apart: the full reading then decides.
func TestNextTyped_YAMLGivenBack(t *testing.T) {
	head := "apiVersion: x.example/v1\nkind: Rich\nmetadata: {name: a}\n"
	for name, spec := range map[string]string{
		"a word YAML 1.1 reads as a boolean":             "spec: {s: yes}",
		"a boolean in another case":                      "spec: {b: True}",
		"a quoted boolean":                               "spec: {b: 'true'}",
		"a number for a string":                          "spec: {s: 12}",
		"an octal-looking integer":                       "spec: {i: 012}",
		"a hex integer":                                  "spec: {i: 0x1F}",
		"an integer with a plus":                         "spec: {i: +1}",
		"an integer out of range":                        "spec: {i8: 128}",
		"a negative unsigned":                            "spec: {u: -1}",
		"an unsigned out of range":                       "spec: {u8: 256}",
		"a float field":                                  "spec: {f: 1.5}",
		"a tag":                                          "spec: {s: !!str 12}",
		"an anchor":                                      "spec: {s: &x a}",
		"an alias":                                       "spec: {s: &x a, e: *x}",
		"a merge key":                                    "base: &b {s: a}\nspec: {<<: *b}",
		"bytes":                                          "spec: {raw: c2VjcmV0}",
		"a type that decodes text":                       "spec: {text: t}",
		"a time not in RFC 3339":                         "spec: {t: 2026-11-30}",
		"a time that is not text":                        "spec: {t: 12}",
		"a duration that is not text":                    "spec: {d: [1]}",
		"a bad duration":                                 "spec: {d: soon}",
		"a key in another case":                          "spec: {S: a}",
		"keys alike but for case":                        "spec: {m: {k: a, K: b}}",
		"many keys alike but for case":                   "spec: {m: {a: 1, b: 1, c: 1, d: 1, e: 1, f: 1, g: 1, h: 1, i: 1, j: 1, k: 1, l: 1, m: 1, n: 1, o: 1, p: 1, q: 1, A: 1}}",
		"an unknown field":                               "spec: {x: 1}",
		"a skipped field":                                "spec: {Skip: 1}",
		"a list for a mapping":                           "spec: [1]",
		"a mapping for a list":                           "spec: {l: {a: b}}",
		"a scalar for a mapping":                         "spec: {m: a}",
		"a mapping for a string":                         "spec: {s: {a: b}}",
		"a number key":                                   "spec: {m: {1: a}}",
		"a null for a list item":                         "spec: {n: [~]}",
		"an interface":                                   "spec: {any: 1}",
		"a field through an unexported embedded pointer": "spec: {q: a}",
		"a field two embedded structs have":              "spec: {Dup: a}",
		"an unexported field":                            "spec: {hidden: a}",
		"a time in other words":                          `spec: {t: "soon"}`,
		"a field given twice in other case":              "spec: {s: a, S: b}",
		"a map value of the wrong shape":                 "spec: {m: {k: [1]}}",
		"a hex unsigned":                                 "spec: {u: 0x1}",
		"a word opening with a minus":                    "spec: {s: -x}",
		"a word opening with a plus":                     "spec: {s: +x}",
		"a word opening with a dot":                      "spec: {s: .x}",
		"a word with an exponent":                        "spec: {s: 1e5e}",
		"a word like a date":                             "spec: {s: 2026-x}",
		"a binary number":                                "spec: {s: 0b101}",
		"a binary number beyond int64":                   "spec: {s: 0b" + strings.Repeat("1", 64) + "}",
		"a date-like word":                               "spec: {s: 2026-11-30}",
		"a number-like word":                             "spec: {s: 1_000}",
		"an infinity":                                    "spec: {s: -.inf}",
		"a second document in the stream":                "spec: {s: a}\n---\napiVersion: x.example/v1\nkind: Rich\nmetadata: {name: b}\nspec: {s: yes}",
		"a List":                                         "kind: List\nitems: []",
		"a top level that is no mapping":                 "",
	} {
		t.Run(name, func(t *testing.T) {
			doc := head + spec + "\n"
			if name == "a top level that is no mapping" {
				doc = "- a\n"
			}
			if name == "a List" {
				doc = "apiVersion: x.example/v1\n" + spec + "\n"
			}
			want, _, wantErr := readRich([]byte(doc), false)
			got, decoded, gotErr := readRich([]byte(doc), true)
			if gotErr != wantErr || !reflect.DeepEqual(got, want) {
				t.Fatalf("straight: %s %v\nfull: %s %v", gotErr, show(got), wantErr, show(want))
			}
			if decoded > 0 && name != "a second document in the stream" {
				t.Errorf("decoded straight: %s", doc)
			}
		})
	}
}
