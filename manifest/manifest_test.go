package manifest

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSplit_YAMLJSONAndEmptyDocuments(t *testing.T) {
	in := "# leading comment only\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n---\nnull\n---\n{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"b\"}}\n"
	docs, err := Split([]byte(in))
	require.NoError(t, err)
	require.Len(t, docs, 2)
	assert.JSONEq(t, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}`, string(docs[0]))
	assert.JSONEq(t, `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"b"}}`, string(docs[1]))
}

func TestReader_IndexCountsEveryDocument(t *testing.T) {
	r := NewReader(strings.NewReader("# header\n---\nkind: A\n---\n\n---\nkind: B\n"))
	d, err := r.Next()
	require.NoError(t, err)
	assert.Equal(t, 1, d.Index, "a comment-only header before the first --- is not a document")
	assert.Equal(t, 3, d.Line)
	d, err = r.Next()
	require.NoError(t, err)
	assert.Equal(t, 3, d.Index, "the empty document between them still has its number")
	assert.Equal(t, 7, d.Line)
	_, err = r.Next()
	assert.ErrorIs(t, err, io.EOF)
}

func TestReader_BadYAMLNamesTheDocument(t *testing.T) {
	_, err := Split([]byte("kind: A\n---\nkind: [unclosed\n"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "document 2, line 3: not valid YAML")
}

func TestReadHeader(t *testing.T) {
	h, err := ReadHeader(json.RawMessage(`{"apiVersion":"finops.stakater.com/v1alpha1","kind":"Offering","metadata":{"namespace":"shop","name":"base"}}`))
	require.NoError(t, err)
	assert.Equal(t, "finops.stakater.com", h.Group())
	assert.Equal(t, "Offering shop/base", h.String())
	assert.False(t, h.IsList())

	h, err = ReadHeader(json.RawMessage(`{"apiVersion":"v1","kind":"Pod","metadata":"oops"}`))
	require.NoError(t, err, "a metadata of the wrong shape is left to the kind's decoder")
	assert.Equal(t, "", h.Group(), "core group")

	for _, bad := range []string{`[1]`, `"text"`, ``, `{"kind":3}`, `{"apiVersion":true}`, `{`} {
		_, err := ReadHeader(json.RawMessage(bad))
		assert.Error(t, err, bad)
	}
}

func TestIsList(t *testing.T) {
	var h Header
	h.Kind = "List"
	assert.True(t, h.IsList())
	h.Kind = "BindingList"
	assert.True(t, h.IsList())
	h.Metadata.Name = "named"
	assert.False(t, h.IsList(), "a named object whose kind ends in List is an object")
}

func TestItems(t *testing.T) {
	items, err := Items(json.RawMessage(`{"kind":"List","items":[{"kind":"A"},{"kind":"B"}]}`))
	require.NoError(t, err)
	assert.Len(t, items, 2)
	_, err = Items(json.RawMessage(`{"kind":"List","items":3}`))
	assert.EqualError(t, err, "items: must be a list, not a number")
	items, err = Items(json.RawMessage(`{"kind":"List","items":[]}`))
	require.NoError(t, err, "kubectl's List of nothing")
	assert.Empty(t, items)
}

// A List whose items are null, or not there, is refused as an empty file
// is, at the line of its items key, nested Lists too.
func TestExpand_ListWithoutItemsIsRefused(t *testing.T) {
	for in, line := range map[string]int{
		"apiVersion: v1\nkind: List\nitems: null\n":               3,
		"apiVersion: v1\nkind: List\nitems:\n":                    3,
		"apiVersion: v1\nkind: List\nitems: ~\n# end\n":           3,
		"apiVersion: v1\nkind: List\nmetadata: {}\n":              1,
		"{\"kind\": \"List\",\n \"items\": null}":                 2,
		"kind: List\nitems:\n- kind: A\n- kind: List\n  items:\n": 5,
	} {
		err := Each(NewReader(strings.NewReader(in)), func(*Document) error { return nil })
		require.Error(t, err, in)
		assert.Contains(t, err.Error(), "items: null or missing", in)
		de := Errors(err)
		require.Len(t, de, 1, in)
		assert.Equal(t, line, de[0].Line, in)
	}
	n := 0
	err := Each(NewReader(strings.NewReader("apiVersion: v1\nkind: List\nitems: []\n")), func(*Document) error { n++; return nil })
	require.NoError(t, err)
	assert.Zero(t, n)
}

func TestFieldError(t *testing.T) {
	var v struct {
		Spec struct {
			Channel string `json:"channel"`
		} `json:"spec"`
	}
	err := json.Unmarshal([]byte(`{"spec":{"channel":[1]}}`), &v)
	assert.EqualError(t, FieldError(err), "spec.channel: must be a string, not a list")
	err = json.Unmarshal([]byte(`{`), &v)
	assert.Contains(t, FieldError(err).Error(), "not valid JSON")
	wrapped := errors.New("data[\"x\"]: keep me")
	assert.Equal(t, wrapped, FieldError(wrapped))
}

func TestSplit_YAMLFlowMappingIsConverted(t *testing.T) {
	docs, err := Split([]byte("{apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n"))
	require.NoError(t, err)
	require.Len(t, docs, 1)
	assert.JSONEq(t, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}`, string(docs[0]))
}

// Each and EachJSON hand over List items one by one, refuse a second
// object of one identity naming the first one's document, pass over an
// empty or null document, and keep going after an error.
func TestEach_ExpandsRefusesDuplicatesAndKeepsGoing(t *testing.T) {
	cm := func(name string) string {
		return `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"` + name + `"}}`
	}
	list := `{"apiVersion":"v1","kind":"List","items":[` + cm("b") + `,` + cm("a") + `]}`
	nameless := `{"apiVersion":"v1","kind":"ConfigMap"}`
	collect := func(got *[]string) func(*Document) error {
		return func(d *Document) error {
			if d.Header.Metadata.Name == "" {
				return d.Fail(errors.New("metadata.name: required"))
			}
			*got = append(*got, d.Header.Metadata.Name+"@"+d.Item)
			return nil
		}
	}

	var fromStream []string
	err := Each(NewReader(strings.NewReader(cm("a")+"\n---\n"+list+"\n---\n"+nameless+"\n---\n"+nameless+"\n")), collect(&fromStream))
	var fromJSON []string
	errJSON := EachJSON([]json.RawMessage{json.RawMessage(cm("a")), json.RawMessage(list), json.RawMessage("null"), json.RawMessage(nameless), json.RawMessage(nameless)}, collect(&fromJSON))

	assert.Equal(t, []string{"a@", "b@items[0]"}, fromStream)
	assert.Equal(t, fromStream, fromJSON)
	for _, e := range []error{err, errJSON} {
		des := Errors(e)
		require.Len(t, des, 3, "%v", e)
		assert.Equal(t, "items[1]", des[0].Item)
		assert.Contains(t, des[0].Error(), "first in document 1")
		for _, de := range des[1:] {
			assert.Contains(t, de.Error(), "metadata.name: required", "a nameless object is its decoder's to refuse, never a duplicate")
		}
	}
}
