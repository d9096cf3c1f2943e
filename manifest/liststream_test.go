package manifest

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readItems reads every document of data under limits, Lists expanded,
// and returns each one's place, line and JSON, or the first error.
func readItems(data string, limits Limits) ([]string, error) {
	docs, err := readDocs([]byte(data), "list.json", limits)
	out := make([]string, 0, len(docs))
	for _, d := range docs {
		out = append(out, fmt.Sprintf("%d %s line %d %s", d.Index, d.Item, d.Line, d.JSON))
	}
	return out, err
}

// kubectlList prints n items as `kubectl get -o json` does: four spaces,
// kind after the items.
func kubectlList(n int) string {
	var b strings.Builder
	b.WriteString("{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n")
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, "        {\n            \"kind\": \"A\",\n            \"metadata\": {\n                \"name\": \"a%d\"\n            }\n        }", i)
	}
	b.WriteString("\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n")
	return b.String()
}

// A List larger than a document may be is read, item by item, each on
// its line; an item larger than a document may be is refused, named.
func TestReader_ListLargerThanADocumentIsReadItemByItem(t *testing.T) {
	in := kubectlList(50)
	limit := int64(len(in) / 10)
	got, err := readItems(in, Limits{Document: limit})
	require.NoError(t, err)
	require.Len(t, got, 50)
	assert.Equal(t, `1 items[0] line 4 {
            "kind": "A",
            "metadata": {
                "name": "a0"
            }
        }`, got[0])
	assert.True(t, strings.HasPrefix(got[49], "1 items[49] line 298 "), got[49])

	big := strings.Replace(in, `"a7"`, `"`+strings.Repeat("x", int(limit))+`"`, 1)
	got, err = readItems(big, Limits{Document: limit})
	assert.Len(t, got, 7, "the items before the large one are read")
	assert.ErrorIs(t, err, ErrLimit)
	assert.Equal(t, fmt.Sprintf("list.json: document 1, items[7], line 46: the document is larger than MaxDocumentBytes (%s); split the input", size(limit)), err.Error())
}

// kubectl prints kind after the items; a List with kind first, and one
// in a stream after another document, read the same.
func TestReader_ListKindAfterOrBeforeItems(t *testing.T) {
	for _, in := range []string{
		`{"apiVersion":"v1","items":[{"kind":"A"},{"kind":"B"}],"kind":"List","metadata":{}}`,
		`{"kind":"List","items":[{"kind":"A"},{"kind":"B"}]}`,
		`{"items":[{"kind":"A"},{"kind":"B"}],"kind":"ConfigMapList"}`,
	} {
		got, err := readItems(in, Limits{Document: 60})
		require.NoError(t, err, in)
		assert.Equal(t, []string{`1 items[0] line 1 {"kind":"A"}`, `1 items[1] line 1 {"kind":"B"}`}, got, in)
	}
	got, err := readItems("kind: X\n---\n"+kubectlList(1)+"---\n{\"kind\":\"Y\"}\n", Limits{})
	require.NoError(t, err)
	require.Len(t, got, 3)
	assert.True(t, strings.HasPrefix(got[1], "2 items[0] line 6 {"), got[1])
	assert.Equal(t, `3  line 19 {"kind":"Y"}`, got[2])
}

// An object with an items list is a List, whatever comes first, its kind
// or its items, in JSON and in YAML: one whose kind is no List's is
// refused at its kind. Before, only a JSON document whose items came
// first was refused, so the same object read or was refused by the order
// of its keys, and YAML, whose keys come sorted out of the conversion,
// could not be written back as JSON that reads.
func TestReader_ItemsOfWhatIsNotAList(t *testing.T) {
	in := strings.Replace(kubectlList(2), `"kind": "List"`, `"kind": "Binding"`, 1)
	_, err := readItems(in, Limits{})
	require.Error(t, err)
	assert.Equal(t, "list.json: document 1, line 17: kind: an object with an items list is read as a List, but this one has kind Binding; a List's kind is List or ends in List, without a name", err.Error())

	for in, want := range map[string]string{
		`{"items":[{"kind":"A"}],"kind":"BList","metadata":{"name":"b"}}`: "document 1, line 1: kind: an object with an items list is read as a List, but this one has kind BList with a metadata.name;",
		`{"items":[]}`: "document 1, line 1: kind: an object with an items list is read as a List, but this one has no kind;",
		`{"kind":"Binding","items":[{"kind":"A"}]}`:          "document 1, line 1: kind: an object with an items list is read as a List, but this one has kind Binding;",
		"kind: Binding\nitems:\n- kind: A\n":                 "document 1, line 1: kind: an object with an items list is read as a List, but this one has kind Binding;",
		"{00, \"items\": []}":                                "document 1, line 1: kind: an object with an items list is read as a List, but this one has no kind;",
		"kind: List\nitems:\n- kind: Binding\n  items: []\n": "document 1, items[0], line 3: kind: an object with an items list is read as a List, but this one has kind Binding;",
	} {
		_, err := readItems(in, Limits{})
		assert.ErrorContains(t, err, want, in)
	}

	got, err := readItems(`{"kind":"Binding","items":{"a":1}}`, Limits{})
	require.NoError(t, err)
	assert.Equal(t, []string{`1  line 1 {"kind":"Binding","items":{"a":1}}`}, got, "items that are not a list make no List")
}

// Each item is as strict as the List read whole: a key given twice, its
// path starting with the item's place; the List's own keys too; and the
// separators between items, which no item holds.
func TestReader_ListItemByItemIsStrict(t *testing.T) {
	for in, want := range map[string]string{
		"{\"items\": [\n{\"kind\": \"A\"},\n{\"kind\": \"B\",\n \"kind\": \"C\"}], \"kind\": \"List\"}": "list.json: document 1, line 4: items[1].kind: given on line 3 and again on line 4;",
		"{\"items\": [\n{\"kind\": \"A\"}],\n\"kind\": \"List\",\n\"kind\": \"List\"}":                  "list.json: document 1, line 4: kind: given on line 3 and again on line 4;",
		"{\"items\": [\n{\"kind\": \"A\"}],\n\"kind\": \"List\",\n\"items\": []}":                       "list.json: document 1, line 4: items: given on line 1 and again on line 4;",
		"{\"items\": [\n{\"kind\": \"A\"}],\n\"Kind\": \"X\",\n\"kind\": \"List\"}":                     "list.json: document 1, line 4: kind: given on line 3 as \"Kind\" and again on line 4 as \"kind\";",
		"{\"items\": [{\"kind\": \"A\"} {\"kind\": \"B\"}], \"kind\": \"List\"}":                        "list.json: document 1, line 1: not valid JSON: invalid character '{' after array element",
		"{\"items\": [{\"kind\": \"A\"},], \"kind\": \"List\"}":                                         "list.json: document 1, line 1: not valid JSON: invalid character ']' looking for beginning of value",
		"{\"items\": [{\"kind\": \"A\"},\n{\"kind\": tru}], \"kind\": \"List\"}":                        "list.json: document 1, line 2: not valid JSON: invalid character '}' in literal true (expecting 'e')",
		"{\"items\": [{\"kind\": \"A\"},\n{\"kind\": \"B\"}":                                            "list.json: document 1, line 2: not valid JSON: unexpected end of JSON input",
		"{\"items\": [{\"kind\": \"A\"}], \"kind\": \"List\"} {}":                                       "list.json: document 1, line 1: not valid JSON: invalid character '{' after top-level value",
		"{\"items\": [{\"kind\": \"\xff\"}], \"kind\": \"List\"}":                                       "list.json: document 1, line 1: items[0].kind: not valid UTF-8 (byte 0xff); save the file as UTF-8",
	} {
		_, err := readItems(in, Limits{})
		require.Error(t, err, in)
		assert.True(t, strings.HasPrefix(err.Error(), want), "%q:\n got %s\nwant %s", in, err, want)
	}
}

// An unknown field of an item is named by the item, on its line, as
// when the List is read whole.
func TestReader_ListItemUnknownFieldIsPlaced(t *testing.T) {
	in := strings.Replace(kubectlList(3), `"name": "a1"`, `"name": "a1", "nmae": "x"`, 1)
	r := NewReader(strings.NewReader(in))
	r.File = "list.json"
	var errs []string
	for {
		d, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		require.NoError(t, d.Expand(func(it *Document) error {
			var v struct {
				Kind     string `json:"kind"`
				Metadata struct {
					Name string `json:"name"`
				} `json:"metadata"`
			}
			if err := it.Unmarshal(&v); err != nil {
				errs = append(errs, err.Error())
			}
			return nil
		}))
	}
	assert.Equal(t, []string{"list.json: document 1, items[1] (A a1), line 13: metadata.nmae: unknown field"}, errs)
}

// An endless List stops at the stream's limit, holding one item at a
// time; an endless item stops at the document's, named.
func TestReader_EndlessList_StopsAtTheLimits(t *testing.T) {
	src := &endless{pattern: []byte(`{"kind":"A","metadata":{"name":"a"}},`)}
	r := NewReader(io.MultiReader(strings.NewReader(`{"items":[`), src))
	r.Limits = Limits{Stream: 8 << 20}
	var err error
	alloc := allocated(func() { err = drain(r) })
	var le *LimitError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, "MaxStreamBytes", le.Limit)
	assert.LessOrEqual(t, src.read, int64(8<<20+slack))
	// The List's text is not held: its buffer keeps the List without
	// its items, the item's one item. Each item costs its document, its
	// JSON and its checks, some 600 bytes for these 37, all dropped
	// before the next.
	assert.LessOrEqual(t, cap(r.buf), 4096)
	assert.LessOrEqual(t, cap(r.item), 4096)
	t.Logf("allocated %d bytes for an 8 MiB List", alloc)
	assert.Less(t, alloc, uint64(20*(8<<20)))

	src = &endless{pattern: []byte("x")}
	r = NewReader(io.MultiReader(strings.NewReader(`{"items":[{"kind":"A"},{"name":"`), src))
	r.File = "endless.json"
	r.Limits = Limits{Document: 1 << 20}
	alloc = allocated(func() { err = drain(r) })
	assert.ErrorIs(t, err, ErrLimit)
	assert.Equal(t, "endless.json: document 1, items[1], line 1: the document is larger than MaxDocumentBytes (1 MiB); split the input", err.Error())
	assert.LessOrEqual(t, src.read, int64(1<<20+slack))
	assert.Less(t, alloc, uint64(4<<20))
}

// A List is read item by item whatever its own keys before its items
// hold (strings with escapes, numbers, literals, nested values, its kind
// first), so a List larger than a document is read; with a kind that is
// no List's first, it is a document, refused at the limit.
func TestReader_ListOwnKeysBeforeItemsOfEveryForm(t *testing.T) {
	items := strings.Repeat(`{"kind":"A"},`, 40) + `{"kind":"A"}`
	for _, head := range []string{
		`"kind":"List",`,
		`"kind":"\u004cist",`,
		`"apiVersion":"v1","kind":"FooList",`,
		`"s":"a\"b\\",`,
		`"n":-1.5e3,`,
		`"t":true, "f":false, "z":null,`,
		`"m":{"a":[1,{"b":"]"}],"c":"}"},`,
		`"l":[[],{},"[",{"x":[]}],`,
		`"kind" : "List" ,`,
	} {
		in := "{" + head + `"items":[` + items + `],"kind":"List"}`
		if strings.Contains(head, `"kind"`) {
			in = "{" + head + `"items":[` + items + `]}`
		}
		got, err := readItems(in, Limits{Document: 200})
		require.NoError(t, err, in)
		assert.Len(t, got, 41, in)
	}
	for _, head := range []string{`"kind":"Binding",`, `"kind":5,`, `"kind":{"a":1},`, `"kind":null,`} {
		in := "{" + head + `"items":[` + items + `]}`
		_, err := readItems(in, Limits{Document: 200})
		assert.ErrorIs(t, err, ErrLimit, in)
	}
}
