package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A List read item by item takes its items as written: an item that is
// not an object is refused as a document that is not one is, at its
// place; a kind written with an escape is the kind; a kind that is not a
// string, or a List's kind given before its items, decides as it says.
func TestReader_ListItemsOfEveryForm(t *testing.T) {
	for in, want := range map[string]string{
		`{"items":[1],"kind":"List"}`:                                       "list.json: document 1, items[0], line 1: a manifest must be an object",
		`{"items":[{"kind":"A"}, "text"],"kind":"List"}`:                    "list.json: document 1, items[1], line 1: a manifest must be an object",
		`{"items":[true ],"kind":"List"}`:                                   "list.json: document 1, items[0], line 1: a manifest must be an object",
		`{"items":[null,{"kind":"A"}],"kind":"List"}`:                       "list.json: document 1, items[0], line 1: a manifest must be an object",
		"{\"items\":[\n1\n,\n2],\"kind\":\"List\"}":                         "list.json: document 1, items[0], line 2: a manifest must be an object",
		`{"items":[[1]],"kind":"List"}`:                                     "list.json: document 1, items[0], line 1: a manifest must be an object",
		`{"\u006bind":"Binding","items":[{"kind":"A"}]}`:                    "list.json: document 1, line 1: kind: an object with an items list is read as a List, but this one has kind Binding;",
		`{"kind":5,"items":[{"kind":"A"}]}`:                                 "list.json: document 1, line 1: kind: must be a string",
		`{"kind":"List","items":[{"kind":"A"}],"metadata":{"name":1}}`:      "",
		`{"a":{"b":[1,"]"]},"c":"\"","items":[{"kind":"A"}],"kind":"List"}`: "",
		`{"a":true,"items":[{"kind":"A"}],"kind":"List"}`:                   "",
		`{"a":-1.5e3 ,"items":[{"kind":"A"}],"kind":"List"}`:                "",
	} {
		_, err := readItems(in, Limits{})
		if want == "" {
			assert.NoError(t, err, in)
			continue
		}
		require.Error(t, err, in)
		assert.True(t, strings.HasPrefix(err.Error(), want), "%s:\n got %s\nwant %s", in, err, want)
	}
}

// The List's own keys, and the newlines of its items kept in their
// place, are bounded by the document limit as a document is.
func TestReader_ListOwnKeysWithinTheDocumentLimit(t *testing.T) {
	long := `{"x":"` + strings.Repeat("a", 200) + `","items":[{"kind":"A"}],"kind":"List"}`
	_, err := readItems(long, Limits{Document: 100})
	assert.ErrorIs(t, err, ErrLimit, "a key's value longer than a document")

	lines := `{"items":[` + strings.Repeat("{\n\n},", 60) + `{}],"kind":"List"}`
	_, err = readItems(lines, Limits{Document: 100})
	var de *DocumentError
	require.ErrorAs(t, err, &de)
	assert.ErrorIs(t, err, ErrLimit, "the newlines the items took")
	assert.Equal(t, "", de.Item, "the List's own text went past the limit, not an item")

	got, err := readItems(lines, Limits{Document: 200})
	require.NoError(t, err)
	assert.Len(t, got, 61)
}

// The Reader tells Sized each document's size before converting it, and
// each item's; a buffer grown for a large document is not kept for the
// next; a reading error of the input names the document it was in.
func TestReader_SizedBuffersAndInputErrors(t *testing.T) {
	var sizes []int
	r := NewReader(strings.NewReader("kind: A\n---\n" + `{"items":[{"kind":"B"},{"kind":"C"}],"kind":"List"}`))
	r.Sized = func(n int) { sizes = append(sizes, n) }
	require.NoError(t, drainOK(r))
	assert.Equal(t, []int{8, 12, 12}, sizes)

	big := "k: " + strings.Repeat("x", 2*maxKeptBuffer) + "\n---\nkind: B\n"
	r = NewReader(strings.NewReader(big))
	_, err := r.Next()
	require.NoError(t, err)
	_, err = r.Next()
	require.NoError(t, err)
	assert.Less(t, cap(r.buf), maxKeptBuffer, "the large buffer was let go")

	broken := errors.New("disk on fire")
	r = NewReader(io.MultiReader(strings.NewReader("kind: A\n---\nkind: "), iotest.ErrReader(broken)))
	r.File = "in.yaml"
	_, err = r.Next()
	require.NoError(t, err)
	_, err = r.Next()
	assert.ErrorIs(t, err, broken)
	assert.Equal(t, "in.yaml: document 2, line 3: disk on fire", err.Error())
}

// drainOK reads r to its end, Lists expanded.
func drainOK(r *Reader) error {
	for {
		d, err := r.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := d.Expand(func(*Document) error { return nil }); err != nil {
			return err
		}
	}
}

// A value of the wrong type is named by what was found, in the words of
// a manifest, for every kind of value and every kind of field.
func TestUnmarshal_WrongTypesNamed(t *testing.T) {
	type kinds struct {
		S  string            `json:"s"`
		I  int               `json:"i"`
		U  uint              `json:"u"`
		F  float64           `json:"f"`
		B  bool              `json:"b"`
		L  []string          `json:"l"`
		A  [2]int            `json:"a"`
		M  map[string]string `json:"m"`
		O  struct{}          `json:"o"`
		C  chan int          `json:"c"`
		T  metav1.Time       `json:"t"`
		D  metav1.Duration   `json:"d"`
		LT []metav1.Time     `json:"lt"`
		MT map[string]metav1.Time
		X  failing `json:"x"`
	}
	for in, want := range map[string]string{
		`{"s": 1}`: "s: must be a string, not the number 1",
		`{"s": 123456789012345678901234567890123456789}`: "s: must be a string, not a number",
		`{"s": true}`: "s: must be a string, not true or false",
		`{"s": [1]}`:  "s: must be a string, not a list",
		`{"s": {}}`:   "s: must be a string, not a mapping",
		`{"i": "x"}`:  `i: must be an integer, not "x"`,
		`{"i": "` + strings.Repeat("x", 40) + `"}`: "i: must be an integer, not a string of 40 bytes",
		`{"u": -1}`:     "u: must not be negative, and -1 is",
		`{"f": "x"}`:    `f: must be a number, not "x"`,
		`{"b": 1}`:      "b: must be true or false, not the number 1",
		`{"l": "x"}`:    `l: must be a list, not "x"`,
		`{"l": [1]}`:    "l[0]: must be a string, not the number 1",
		`{"a": {}}`:     "a: must be a list, not a mapping",
		`{"m": []}`:     "m: must be a mapping, not a list",
		`{"o": 1}`:      "o: must be a mapping, not the number 1",
		`{"c": 1}`:      "c: must be another type, not the number 1",
		`{"t": "soon"}`: `t: must be a time in RFC 3339 form, such as 2026-11-30T10:00:00Z, not "soon"`,
		`{"t": "` + strings.Repeat("y", 40) + `"}`: "t: must be a time in RFC 3339 form, such as 2026-11-30T10:00:00Z, not a string of 40 bytes",
		`{"t": true}`:                           "t: must be a time in RFC 3339 form, such as 2026-11-30T10:00:00Z, not true",
		`{"t": [1]}`:                            "t: must be a time in RFC 3339 form, such as 2026-11-30T10:00:00Z, not a list",
		`{"t": {}}`:                             "t: must be a time in RFC 3339 form, such as 2026-11-30T10:00:00Z, not a mapping",
		`{"d": 5}`:                              "d: must be a duration such as 90s, 5m or 1h30m, not the number 5",
		`{"lt": ["2026-11-30T10:00:00Z", "x"]}`: `lt[1]: must be a time in RFC 3339 form, such as 2026-11-30T10:00:00Z, not "x"`,
		`{"MT": {"k": "x"}}`:                    `MT.k: must be a time in RFC 3339 form, such as 2026-11-30T10:00:00Z, not "x"`,
		`{"x": "a"}`:                            `x: cannot be "a": it always fails`,
		`{"s": "a", "x": {"k": [1]}}`:           "x: cannot be a mapping: it always fails",
	} {
		r := NewReader(strings.NewReader(in))
		d, err := r.Next()
		require.NoError(t, err, in)
		var v kinds
		err = d.Unmarshal(&v)
		require.Error(t, err, in)
		assert.Contains(t, err.Error(), want, in)
	}
}

// failing decodes itself and always fails, in words that say neither
// where nor what was wanted.
type failing struct{}

func (*failing) UnmarshalJSON([]byte) error { return errors.New("it always fails") }

// describeRaw names every kind of JSON value as its author sees it.
func TestDescribeRaw(t *testing.T) {
	for raw, want := range map[string]string{
		"":                                  "nothing",
		` "abc" `:                           `"abc"`,
		`"` + strings.Repeat("a", 33) + `"`: "a string of 33 bytes",
		`"\x"`:                              `the number "\x"`,
		"[1]":                               "a list",
		"{}":                                "a mapping",
		"true":                              "true",
		"false":                             "false",
		"null":                              "null",
		"12.5":                              "the number 12.5",
		strings.Repeat("9", 50):             "the number " + strings.Repeat("9", 29) + "\u2026",
	} {
		assert.Equal(t, want, describeRaw([]byte(raw)), raw)
	}
}

// An unknown field is named by its full path, through lists and maps of
// structs, in the case it was written.
func TestUnmarshal_UnknownFieldPaths(t *testing.T) {
	type item struct {
		Name string `json:"name"`
	}
	type spec struct {
		Items  []item          `json:"items"`
		ByName map[string]item `json:"byName"`
		Raw    json.RawMessage `json:"raw"`
		Any    any             `json:"any"`
		hidden string
		Shown  string
	}
	type object struct {
		Spec spec `json:"spec"`
	}
	_ = spec{}.hidden // a field encoding/json does not see: no key sets it
	for in, want := range map[string]string{
		`{"spec": {"items": [{"name": "a"}, {"nmae": "b"}]}}`:          "spec.items[1].nmae: unknown field",
		`{"spec": {"byName": {"k": {"name": "a", "x": 1}}}}`:           "spec.byName.k.x: unknown field",
		`{"spec": {"raw": {"anything": 1}, "any": {"y": 1}, "zz": 1}}`: "spec.zz: unknown field",
		`{"spec": {"hidden": "a"}}`:                                    "spec.hidden: unknown field",
		`{"spec": {"items": {"name": "a"}}}`:                           "spec.items: must be a list, not a mapping",
		`{"spec": {"shown": "a", "Shown": "b"}}`:                       `spec.Shown: given twice on line 1, as "shown" and as "Shown"`,
	} {
		r := NewReader(strings.NewReader(in))
		d, err := r.Next()
		require.NoError(t, err, in)
		var v object
		err = d.Unmarshal(&v)
		require.Error(t, err, in)
		assert.Contains(t, err.Error(), want, in)
	}
	assert.Equal(t, "spec.x", unknownField([]byte(`{"spec": {"x": 1}}`), reflect.TypeFor[object]()))
	assert.Equal(t, "", unknownField([]byte(`{"spec": {"shown": 1}}`), reflect.TypeFor[object]()))
	assert.Equal(t, "", unknownField([]byte(`{"spec": `), reflect.TypeFor[object]()), "text cut short")
}

// The straight decode takes only an object whose first two keys are its
// apiVersion and kind, plain strings, into a type whose TypeMeta holds
// them, with a name; anything else goes to the full reading.
func TestNextTyped_WhatTheJSONPathTakes(t *testing.T) {
	const body = `"metadata":{"name":"a","namespace":"n"}}`
	for in, decoded := range map[string]bool{
		`{"apiVersion":"x.example/v1","kind":"Rich",` + body:          true,
		`{"kind":"Rich","apiVersion":"x.example/v1",` + body:          true,
		` { "apiVersion" : "x.example/v1" , "kind" : "Rich" ,` + body: true,
		`{"apiVersion":"x.example/v1",` + body:                        false,
		`{"apiVersion":"x.example/v1","kind":"Rich"}`:                 false,
		`{"apiVersion":"x.example/v1","kind":"Rich","metadata":{}}`:   false,
		`{"apiVersion":"x.\u0065xample/v1","kind":"Rich",` + body:     false,
		`{"apiVersion":"x.example/v1","kind":"Other",` + body:         false,
		`{"apiVersion":"x.example/v1","kind":"List",` + body:          false,
		`{"apiVersion":"","kind":"Rich",` + body:                      false,
		`{"apiVersion":1,"kind":"Rich",` + body:                       false,
		`{"apiVersion" "x.example/v1","kind":"Rich",` + body:          false,
		`{"name":"x.example/v1","kind":"Rich",` + body:                false,
		`{"apiVersion":"x.example/v1" "kind":"Rich",` + body:          false,
		`{"apiVersion":"x.example/v1","kind":"Rich"` + body:           false,
		`{"apiVersion":"x.example/v1","kind":"Rich`:                   false,
		`["apiVersion"]`: false,
	} {
		want, _, wantErr := readRich([]byte(in), false)
		got, n, gotErr := readRich([]byte(in), true)
		assert.Equal(t, wantErr, gotErr, in)
		assert.True(t, reflect.DeepEqual(want, got), "%s: %v / %v", in, show(got), show(want))
		assert.Equal(t, decoded, n == 1, in)
	}
}

// A slot whose value is no Kubernetes object, or keeps its apiVersion
// and kind elsewhere than TypeMeta, takes nothing straight.
func TestNextTyped_SlotsThatTakeNothing(t *testing.T) {
	type plain struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct {
			Name string `json:"name"`
		} `json:"metadata"`
	}
	type elsewhere struct {
		Type              metav1.TypeMeta `json:"typeMeta"`
		metav1.TypeMeta   `json:"-"`
		metav1.ObjectMeta `json:"metadata"`
		APIVersion        string `json:"apiVersion"`
		Kind              string `json:"kind"`
	}
	for name, slot := range map[string]Slot{
		"no object":          func(string, string) any { return new(plain) },
		"TypeMeta elsewhere": func(string, string) any { return new(elsewhere) },
	} {
		for _, in := range []string{
			`{"apiVersion":"x.example/v1","kind":"Rich","metadata":{"name":"a"}}`,
			"apiVersion: x.example/v1\nkind: Rich\nmetadata: {name: a}\n",
		} {
			r := NewReader(strings.NewReader(in))
			var seen Identities
			_, typed, err := r.NextTyped(&seen, slot)
			require.NoError(t, err)
			assert.False(t, typed, "%s: %s", name, in)
			assert.Empty(t, seen.m)
		}
	}
}

// Errors and DocumentError's words, for the cases no reader test meets.
func TestErrors_EdgeCases(t *testing.T) {
	assert.Nil(t, Errors(nil))
	assert.Nil(t, Errors(errors.New("plain")))
	de := &DocumentError{Index: 2, Err: errors.New("x")}
	assert.Equal(t, []*DocumentError{de}, Errors(fmt.Errorf("wrapped: %w", de)))
	assert.Equal(t, "document 2 (K), line 3: x", (&DocumentError{Index: 2, Kind: "K", Line: 3, Err: errors.New("x")}).Error())
	assert.Equal(t, "f: ", (&DocumentError{File: "f"}).Error())
	assert.Equal(t, "problem", (&fieldError{problem: "problem"}).Error())
	assert.Contains(t, DuplicateKey([]byte(`{"a \"b":1,"a \"b":2}`)).Error(), `a "b: given twice on line 1 (columns 2 and 12)`)
	assert.NoError(t, DuplicateKey([]byte(`{"a":1,"b":2}`)))
}

// EachJSON refuses a document whose JSON holds a key twice, naming the
// key without a line (the caller's JSON has none of the input's).
func TestEachJSON_KeyGivenTwice(t *testing.T) {
	err := EachJSON([]json.RawMessage{json.RawMessage(`{"kind":"A","kind":"B"}`)}, func(*Document) error { return nil })
	require.Error(t, err)
	assert.Equal(t, "document 1: kind: given twice on line 1 (columns 2 and 13); a mapping holds each key once (a decoder would keep the last and drop the first without a word), so remove one", err.Error())
}

// isItems matches the items key as encoding/json matches a key to the
// field items: exactly, escaped, or in another case, and nothing else.
func TestIsItems(t *testing.T) {
	for quoted, want := range map[string]bool{
		`"items"`: true, `"Items"`: true, `"ITEMS"`: true, `"\u0069tems"`: true, `"item\u017f"`: true,
		`"\u0069\u0074\u0065\u006d\u0073"`: true, `"\u0131tems"`: true, "\"\u0131tems\"": true,
		`"item"`: false, `"itemss"`: false, `"metadata"`: false, `"xxxxxxx"`: false, `"\"items"`: false,
		`"` + strings.Repeat("i", 40) + `"`: false, `"\u0078tems"`: false, `"`: false, `""`: false,
	} {
		assert.Equal(t, want, isItems([]byte(quoted)), quoted)
	}
	// A key that cannot be the items key is told at its first letter,
	// not decoded: the walk meets every key of every List item.
	key := []byte(`"metadata"`)
	assert.Zero(t, testing.AllocsPerRun(100, func() { isItems(key) }))
}

// The line reader passes an empty read on as one, and the scan of many
// keys hashes keys beyond ASCII as encoding/json folds them.
func TestSmallPieces(t *testing.T) {
	n, err := newCRReader(strings.NewReader("a")).Read(nil)
	assert.Equal(t, 0, n)
	assert.NoError(t, err)

	assert.Equal(t, foldHash([]byte("STRAßE")), foldHash([]byte("straße")))
	assert.NotEqual(t, foldHash([]byte("é")), foldHash([]byte("e")))
	var b bytes.Buffer
	b.WriteString("{")
	for i := range 2 * manyKeys {
		fmt.Fprintf(&b, `"k\u00e9%d":1,`, i)
	}
	b.WriteString(`"K\u00c90":2}`)
	assert.True(t, scanKeys(b.Bytes()).folded, "É folds with é in an object of many keys")
	assert.Equal(t, []byte(`"a\x"`), keyText([]byte(`"a\x"`)), "an escape the decoder refuses is left as written")
}

// keyText decodes a key's escapes, and leaves a key without any as it is
// written, without allocating.
func TestKeyText(t *testing.T) {
	for quoted, want := range map[string]string{`"a"`: "a", `""`: "", `"\u0061b"`: "ab", `"\"\""`: `""`, `"cut`: `"cut`, `"`: `"`} {
		assert.Equal(t, want, string(keyText([]byte(quoted))), quoted)
	}
	key := []byte(`"metadata"`)
	assert.Zero(t, testing.AllocsPerRun(100, func() { keyText(key) }))
	assert.False(t, scanKeys([]byte(`{"":1,"\"\"":2}`)).dup, "the empty key and a key of two quotes differ")
}

// Expand and EachJSON read JSON a caller hands over, which no reader
// checked: every prefix of a List, cut anywhere, is refused or read,
// never a panic; an empty document is refused.
func TestExpand_CutJSONIsNoPanic(t *testing.T) {
	full := `{"kind":"List","x":[1,"a\"b",{"y":null}],"items":[{"kind":"A","metadata":{"name":"a"}}, 12 ,{"kind":"List","Items":[{"kind":"B"}]}] , "metadata":{}}`
	for i := range len(full) {
		raw := json.RawMessage(full[:i])
		_ = EachJSON([]json.RawMessage{raw}, func(*Document) error { return nil })
		d := &Document{JSON: raw}
		_ = d.Expand(func(*Document) error { return nil })
	}
	for _, empty := range []string{"", "  ", "\n"} {
		err := (&Document{JSON: json.RawMessage(empty)}).Expand(func(*Document) error { return nil })
		assert.Error(t, err, "%q", empty)
	}
}

// The items of a JSON List read whole (its items key in another case, so
// not read item by item) are on their lines, counted from the section's
// first line, blank lines before the List included.
func TestExpand_JSONListReadWholeItemLines(t *testing.T) {
	in := "kind: A\n---\n\n\n{\"kind\": \"List\", \"Items\": [\n  {\"kind\": \"B\"},\n\n  {\"kind\": \"C\"}]}\n"
	got, err := readItems(in, Limits{})
	require.NoError(t, err)
	assert.Equal(t, []string{`1  line 1 {"kind":"A"}`, `2 items[0] line 6 {"kind": "B"}`, `2 items[1] line 8 {"kind": "C"}`}, got)
}

// A repeat in documents without lines (a caller's JSON) names the first
// by its document alone.
func TestIdentities_RepeatWithoutLines(t *testing.T) {
	raws := []json.RawMessage{json.RawMessage(`{"kind":"A","metadata":{"name":"a"}}`), json.RawMessage(`{"kind":"A","metadata":{"name":"a"}}`)}
	err := EachJSON(raws, func(*Document) error { return nil })
	require.Error(t, err)
	assert.Equal(t, "document 2 (A a): metadata.name: A a is listed again (first in document 1); the API server holds one object per name", err.Error())
}

// The places a List item's errors are named at: a string item whose
// text is not UTF-8 at its top, one inside a list item, newlines between
// items past the List's own limit.
func TestReader_ListItemErrorPlaces(t *testing.T) {
	for in, want := range map[string]string{
		"{\"items\":[\"\xff\"],\"kind\":\"List\"}":         "list.json: document 1, line 1: items[0]: not valid UTF-8 (byte 0xff)",
		"{\"items\":[[\"a\",\"\xff\"]],\"kind\":\"List\"}": "list.json: document 1, line 1: items[0][1]: not valid UTF-8 (byte 0xff)",
	} {
		_, err := readItems(in, Limits{})
		require.Error(t, err, in)
		assert.True(t, strings.HasPrefix(err.Error(), want), "%q: %v", in, err)
	}
	_, err := readItems(`{"items":[{}`+strings.Repeat("\n", 150)+`],"kind":"List"}`, Limits{Document: 100})
	assert.ErrorIs(t, err, ErrLimit, "newlines between items count toward the List's own text")
}

// The whole reading's words and lines for documents no other test holds:
// YAML that is not UTF-8, a YAML null document, a field's line asked of
// an item and of a blank document, an identity read twice.
func TestReader_SmallCasesOfTheFullReading(t *testing.T) {
	_, err := Split([]byte("kind: A\nname: \xff\n"))
	require.Error(t, err)
	assert.Equal(t, "document 1, line 2: not valid UTF-8 (byte 0xff); save the file as UTF-8", err.Error())

	docs, err := Split([]byte("kind: A\n---\n~\n---\nkind: B\n"))
	require.NoError(t, err)
	assert.Len(t, docs, 2, "a YAML null document is passed over")

	got, err := readItems("kind: List\nitems:\n- kind: A\n  x: 1\n", Limits{})
	require.NoError(t, err)
	require.Len(t, got, 1)
	r := NewReader(strings.NewReader("kind: List\nitems:\n- kind: A\n  x: 1\n"))
	d, err := r.Next()
	require.NoError(t, err)
	require.NoError(t, d.Expand(func(it *Document) error {
		assert.Equal(t, 3, it.lineOf(""), "an item's own line")
		assert.Equal(t, 4, it.lineOf("x"))
		h1, err := it.Identify()
		require.NoError(t, err)
		h2, _ := it.Identify()
		assert.Same(t, h1, h2, "read once")
		return nil
	}))
	assert.Zero(t, (&Document{source: []byte("  \n"), sourceLine: 3}).lineOf("a"), "a blank document has no fields")
}

// A number YAML reads past the range of an integer, written in a way
// that is no decimal (underscores), is named by what the decoder saw; a
// number in a list of integers, by its place in the list.
func TestUnmarshal_NumbersWrittenOtherwise(t *testing.T) {
	got := unmarshalOne(t, "kind: A\nmetadata:\n  generation: 1_000_000_000_000_000_000_000\n")
	assert.Contains(t, got, "metadata.generation: must be an integer, not the number 1e+21")

	r := NewReader(strings.NewReader("counts:\n- 1\n- 1e400\n"))
	d, err := r.Next()
	require.NoError(t, err)
	var v struct {
		Counts []int64 `json:"counts"`
	}
	err = d.Unmarshal(&v)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `counts[1]: must be an integer, not "1e400"`)
}

// yamlLineOf counts a block list's items after their key; an item the
// list does not hold (past its end, or where the list ends first, or a
// key with no list) is placed at its key's line.
func TestYAMLLineOf_ListItems(t *testing.T) {
	src := []byte("a:\n- x\n- y\nb:\n  - z\nc: 1\n")
	for path, want := range map[string]int{
		"a[0]": 2, "a[1]": 3, "a[2]": 1, "b[0]": 5, "b[1]": 4, "c[0]": 6, "a": 1, "zz": 0,
	} {
		assert.Equal(t, want, yamlLineOf(src, splitPath(path)), path)
	}
	assert.Equal(t, 2, yamlLineOf([]byte("- a:\n  - x\n"), splitPath("a[0]")), "a list under a key of a list item")
	assert.Equal(t, 3, yamlLineOf([]byte("a:\n  # c\n  - x\n"), splitPath("a[0]")))
	assert.Equal(t, 1, yamlLineOf([]byte("a: [x, y]\n"), splitPath("a[1]")), "a flow list keeps its key's line")
}

// walkTyped passes over a map between fields, and a value cut short.
func TestUnknownField_MapsBetweenFieldsAndCutText(t *testing.T) {
	type obj struct {
		M map[string]int `json:"m"`
		A string         `json:"a"`
	}
	assert.Equal(t, "zz", unknownField([]byte(`{"m":{"x":1,"y":2},"a":"b","zz":1}`), reflect.TypeFor[obj]()))
	assert.Equal(t, "", unknownField([]byte(`{"m":{"x":[1,`), reflect.TypeFor[obj]()))
}

// NextTyped gives back a document that is not UTF-8, and one whose first
// two keys are not apiVersion and kind.
func TestNextTyped_GivesBackWhatItCannotPeek(t *testing.T) {
	for _, in := range []string{
		"{\"apiVersion\":\"x.example/v1\",\"kind\":\"Rich\",\"metadata\":{\"name\":\"\xff\"}}",
		`{"kind":"Rich","other":"x","metadata":{"name":"a"}}`,
		`{"kind":"Rich","apiVersion":x}`,
		`{"kind" "Rich"}`,
	} {
		r := NewReader(strings.NewReader(in))
		var seen Identities
		var got []any
		_, typed, _ := r.NextTyped(&seen, richSlot(&got))
		assert.False(t, typed, in)
	}
}
