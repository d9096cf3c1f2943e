package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// foldObject is read as an object of one of our kinds is: typed fields,
// and maps and raw JSON whose keys are the author's.
type foldObject struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name   string            `json:"name"`
		Labels map[string]string `json:"labels"`
	} `json:"metadata"`
	Spec struct {
		Agent struct {
			BackendRef string `json:"backendRef"`
		} `json:"agent"`
		Channels []struct {
			Name string `json:"name"`
		} `json:"channels"`
		Extra json.RawMessage `json:"extra"`
	} `json:"spec"`
}

// readFold reads every document of in, each into a foldObject.
func readFold(in string) ([]foldObject, error) {
	var out []foldObject
	err := Each(NewReader(bytes.NewReader([]byte(in))), func(d *Document) error {
		var o foldObject
		if err := d.Unmarshal(&o); err != nil {
			return err
		}
		out = append(out, o)
		return nil
	})
	return out, err
}

// Two keys that differ only in case set one field, the later winning,
// as encoding/json reads them: that is a key given twice, named with
// its field, both spellings and both lines, in YAML as in JSON, at any
// depth and in a List item.
func TestUnmarshal_KeysDifferingInCaseAreOneFieldGivenTwice(t *testing.T) {
	for name, tc := range map[string]struct {
		in, want string
		line     int
	}{
		"json kind": {
			"{\"apiVersion\": \"a/v1\",\n \"kind\": \"Binding\",\n \"Kind\": \"AgentBackend\",\n \"metadata\": {\"name\": \"a\"}}\n",
			`kind: given on line 2 as "kind" and again on line 3 as "Kind"`, 3},
		"yaml kind": {
			"apiVersion: a/v1\nkind: Binding\nmetadata:\n  name: a\nKind: AgentBackend\n",
			`kind: given on line 2 as "kind" and again on line 5 as "Kind"`, 5},
		"yaml apiVersion": {
			"APIVersion: b/v1\nkind: Binding\napiVersion: a/v1\nmetadata: {name: a}\n",
			`apiVersion: given on line 1 as "APIVersion" and again on line 3 as "apiVersion"`, 3},
		"json spec": {
			"{\"kind\": \"Binding\", \"metadata\": {\"name\": \"a\"},\n \"spec\": {},\n \"Spec\": {\"agent\": {\"backendRef\": \"b\"}}}",
			`spec: given on line 2 as "spec" and again on line 3 as "Spec"`, 3},
		"yaml nested": {
			"kind: Binding\nmetadata: {name: a}\nspec:\n  agent:\n    backendRef: a\n    BACKENDREF: b\n",
			`spec.agent.backendRef: given on line 5 as "backendRef" and again on line 6 as "BACKENDREF"`, 6},
		"json in a list": {
			"{\"kind\": \"List\", \"items\": [{\"kind\": \"Binding\", \"metadata\": {\"name\": \"a\"},\n \"spec\": {\"channels\": [{\"name\": \"x\"}, {\"name\": \"y\",\n \"Name\": \"z\"}]}}]}",
			`items[0] (Binding a), line 3: spec.channels[1].name: given on line 2 as "name" and again on line 3 as "Name"`, 3},
		"list items twice": {
			"kind: List\nitems: []\nItems:\n- kind: Binding\n  metadata: {name: a}\n",
			`items: given on line 2 as "items" and again on line 3 as "Items"`, 3},
		"labels field twice": {
			"kind: Binding\nmetadata:\n  name: a\n  labels: {app: x}\n  Labels: {app: y}\n",
			`metadata.labels: given on line 4 as "labels" and again on line 5 as "Labels"`, 5},
		"kelvin sign": {
			"{\"kind\": \"Binding\", \"\u212aind\": \"AgentBackend\", \"metadata\": {\"name\": \"a\"}}",
			`kind: given twice on line 1, as "kind" and as "\u212aind"`, 1},
		"second document": {
			"kind: Binding\nmetadata: {name: a}\n---\nkind: Binding\nmetadata:\n  name: b\n  Name: c\n",
			`metadata.name: given on line 6 as "name" and again on line 7 as "Name"`, 7},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := readFold(tc.in)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Contains(t, err.Error(), "without regard to case")
			var de *DocumentError
			require.True(t, errors.As(err, &de), "%T", err)
			assert.Equal(t, tc.line, de.Line, "the error is placed on the later key")
		})
	}
}

// Keys of maps and of raw JSON are the author's, not fields: labels App
// and app are two labels, and a mapping may hold keys that differ in
// case where no field reads them.
func TestUnmarshal_KeysDifferingInCaseInMapsAreDistinct(t *testing.T) {
	objs, err := readFold("kind: Binding\nmetadata:\n  name: a\n  labels:\n    App: one\n    app: two\n" +
		"spec:\n  extra: {kind: a, Kind: b}\n")
	require.NoError(t, err)
	require.Len(t, objs, 1)
	assert.Equal(t, map[string]string{"App": "one", "app": "two"}, objs[0].Metadata.Labels)
	assert.JSONEq(t, `{"kind":"a","Kind":"b"}`, string(objs[0].Spec.Extra))

	_, err = readFold(`{"kind":"Binding","metadata":{"name":"a","labels":{"Kind":"x","kind":"y"}}}`)
	require.NoError(t, err)
}

// Documents handed over as JSON (a scenario's objects) are checked too;
// their lines are not the input's, so none is named.
func TestEachJSON_KeysDifferingInCase(t *testing.T) {
	err := EachJSON([]json.RawMessage{[]byte(`{"kind":"Binding","metadata":{"name":"a"}}`), []byte(`{"Kind":"A","kind":"Binding","metadata":{"name":"b"}}`)},
		func(d *Document) error {
			var o foldObject
			return d.Unmarshal(&o)
		})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `document 2: kind: given twice, as "Kind" and as "kind"`)
}

// RepeatedField is the same check for JSON that reaches a program
// another way, without lines.
func TestRepeatedField(t *testing.T) {
	var o foldObject
	err := RepeatedField([]byte(`{"metadata":{"labels":{"a":"1","A":"2"}},"spec":{"agent":{"backendRef":"a","backendref":"b"}}}`), &o)
	require.Error(t, err)
	assert.Equal(t, `spec.agent.backendRef: given twice, as "backendRef" and as "backendref"; field names are matched without regard to case, so both keys set backendRef (a decoder would keep the last and drop the first without a word), so remove one`, err.Error())
	assert.NoError(t, RepeatedField([]byte(`{"metadata":{"labels":{"a":"1","A":"2"}}}`), &o))
	assert.NoError(t, RepeatedField([]byte(`{"kind":"x"}`), &o))
}

// When the field finder cannot place one of the two keys (written with
// an escape it does not read), the message names the keys without a
// line for that one, whichever of the two it is.
func TestUnmarshal_KeysInAnotherCaseOneUnplaced(t *testing.T) {
	var v struct {
		Kind string `json:"kind"`
	}
	for in, want := range map[string]string{
		"\"\\u004bind\": A\nkind: B\n": `line 2: kind: given twice, as "Kind" and as "kind"`,
		"Kind: A\n\"\\u006bind\": B\n": `line 1: kind: given twice, as "Kind" and as "kind"`,
	} {
		r := NewReader(strings.NewReader(in))
		d, err := r.Next()
		require.NoError(t, err)
		err = d.Unmarshal(&v)
		require.Error(t, err, in)
		assert.Contains(t, err.Error(), want, in)
		assert.NotContains(t, err.Error(), "line 0", in)
	}
}
