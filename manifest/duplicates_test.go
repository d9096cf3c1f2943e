package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// A key given twice in one mapping is refused, at any depth, in YAML and
// JSON, with the key's path and the lines of both.
func TestReader_DuplicateKeyNamesBothLines(t *testing.T) {
	for name, tc := range map[string]struct {
		in, want string
		line     int
	}{
		"yaml kind twice": {
			"apiVersion: agentkourier.dev/v1alpha1\nkind: Binding\nkind: AgentBackend\nmetadata: {name: a}\n",
			"line 3: kind: given on line 2 and again on line 3", 3},
		"json kind twice": {
			"{\"apiVersion\": \"agentkourier.dev/v1alpha1\",\n \"kind\": \"Binding\",\n \"metadata\": {\"name\": \"a\"},\n \"kind\": \"AgentBackend\"}\n",
			"kind: given on line 2 and again on line 4", 4},
		"json on one line": {
			`{"kind":"Binding","metadata":{"name":"a"},"kind":"AgentBackend"}`,
			"kind: given twice on line 1", 1},
		"json nested, escaped": {
			"{\"kind\": \"Binding\",\n \"spec\": {\"agent\": {\"backendRef\": \"a\",\n  \"backend\\u0052ef\": \"b\"}}}\n",
			"spec.agent.backendRef: given on line 2 and again on line 3", 3},
		"json in a list item": {
			"{\"kind\": \"List\", \"items\": [{\"kind\": \"A\"},\n {\"kind\": \"B\",\n  \"metadata\": {}, \"metadata\": {}}]}\n",
			"items[1].metadata: given twice on line 3", 3},
		"yaml nested": {
			"kind: Binding\nmetadata:\n  name: a\nspec:\n  agent:\n    backendRef: a\n    # a comment\n    other:\n      x: 1\n    backendRef: b\n",
			"line 10: spec.agent.backendRef: given on line 6 and again on line 10", 10},
		"yaml block value": {
			"kind: Binding\nspec:\n  a: 1\nspec:\n  b: 2\n",
			"line 4: spec: given on line 2 and again on line 4", 4},
		"yaml list item": {
			"kind: List\nitems:\n- kind: A\n  metadata:\n    name: a\n- kind: B\n  kind: C\n",
			"line 7: items[1].kind: given on line 6 and again on line 7", 7},
		"yaml flow mapping": {
			"kind: Binding\nmetadata: {name: a, name: b}\n",
			"line 2: metadata.name: given twice on line 2 (columns 12 and 21)", 2},
		"yaml flow document": {
			"{kind: Binding, kind: AgentBackend}\n",
			"line 1: kind: given twice on line 1 (columns 2 and 17)", 1},
		"after other documents": {
			"kind: A\n---\n# header\nkind: B\nmetadata: {}\nkind: C\n",
			"line 6: kind: given on line 4 and again on line 6", 6},
		"yaml deep in lists": {
			"kind: Binding\nspec:\n  channels:\n  - name: a\n  - name: b\n    port: 1\n  -   name: c\n      # a comment\n\n      name: d\n",
			"line 10: spec.channels[2].name: given on line 7 and again on line 10", 10},
		"yaml list of lists": {
			"kind: A\nitems:\n- x: 1\n- - y: 1\n  - y: 2\n    z: 1\n    z: 2\n",
			"line 7: items[1][1].z: given on line 6 and again on line 7", 7},
		"yaml item mapping on its own line": {
			"kind: A\nlist:\n  -\n    a: 1\n  -\n    a: 1\n    b: {c: 1, c: 2}\n",
			"line 7: list[1].b.c: given twice on line 7", 7},
		"yaml quoted keys": {
			"kind: A\n\"my key\":\n  'it''s':\n    v: 1\n    v: 2\n",
			"line 5: my key.it's.v: given on line 4 and again on line 5", 5},
		"yaml flow item": {
			"kind: A\nports:\n- {name: a}\n- {name: b, name: c}\n",
			"line 4: ports[1].name: given twice on line 4", 4},
		"yaml nested flow mapping": {
			"kind: A\nobjects:\n- {apiVersion: v1, kind: Secret, metadata: {name: s, name: t}}\n",
			"line 3: objects[0].metadata.name: given twice on line 3", 3},
		"yaml nested flow, JSON style": {
			"kind: A\nobjects:\n- {}\n- {\"kind\": \"B\", \"metadata\": {\"namespace\": \"a\", \"name\": \"b\", \"name\": \"c\"}}\n",
			"line 4: objects[1].metadata.name: given twice on line 4", 4},
		"yaml flow mapping in a flow sequence": {
			"kind: A\na: {b: [1, {c: 1, c: 2}]}\n",
			"line 2: a.b[1].c: given twice on line 2", 2},
		"yaml nested flow document": {
			"{kind: A, spec: {x: {}, y: 1, y: 2}}\n",
			"line 1: spec.y: given twice on line 1", 1},
		"yaml keys YAML 1.1 reads as true": {
			"kind: A\nspec:\n  yes: 1\n  # on is true too\n  on: 2\n",
			`line 5: spec.on: given on line 3 and again on line 5, as "yes" and "on", both read as true, not as text`, 5},
		"yaml key y twice in a flow mapping": {
			"kind: A\nspec: {y: 1, x: 0, y: 2}\n",
			`line 2: spec.y: given twice on line 2 (columns 8 and 20), as "y" and "y", both read as true, not as text`, 2},
		"yaml keys read as true, nested in flow": {
			"kind: A\nspec: {yes: {on: 1}, x: [{y: 1}], on: 2}\n",
			`line 2: spec.on: given twice on line 2 (columns 8 and 35), as "yes" and "on", both read as true, not as text`, 2},
		"yaml flow mapping over two lines": {
			"kind: A\nspec: {a: 1,\n  b: 1, a: 2}\n",
			"line 3: spec.a: given on line 2 and again on line 3", 3},
		"yaml explicit key": {
			"kind: A\nspec:\n  ? a\n  : 1\n  a: 2\n",
			"line 5: spec.a: given on line 3 and again on line 5", 5},
		"yaml compact JSON-style flow mapping": {
			"kind: A\nobjects:\n- {\"a\":1,\"b\":{\"a\":0},\"a\":2}\n",
			"line 3: objects[0].a: given twice on line 3 (columns 4 and 22)", 3},
		"yaml numeric keys": {
			"kind: A\nitems:\n- ports:\n    1: a\n    0x1: b\n",
			`line 5: items[0].ports.0x1: given on line 4 and again on line 5, as "1" and "0x1", both read as 1, not as text`, 5},
		"yaml flow key with brackets in quotes": {
			"kind: A\nlist:\n- {\"a{b\": {'c]': 1, x: 1, x: 2}}\n",
			"line 3: list[0].a{b.x: given twice on line 3", 3},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Split([]byte(tc.in))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			var de *DocumentError
			require.True(t, errors.As(err, &de), "%T", err)
			assert.Equal(t, tc.line, de.Line, "the error is placed on the later key")
		})
	}
}

// A key written twice in a mapping that also holds a merge key (<<) is
// refused like any other: only a key that overrides what the merge
// brought in may repeat one. The decoder reports both alike, and the
// reader used to take the repeat for an override and let the last win.
func TestReader_KeyWrittenTwiceBesideAMergeKeyIsRefused(t *testing.T) {
	const base = "base: &b {x: 1}\n"
	for name, tc := range map[string]struct {
		in, want string
		line     int
	}{
		"override written twice": {base + "m:\n  <<: *b\n  x: 2\n  x: 3\n",
			"line 5: m.x: given on line 4 and again on line 5", 5},
		"merge between the two": {base + "m:\n  x: 2\n  <<: *b\n  x: 3\n",
			"line 5: m.x: given on line 3 and again on line 5", 5},
		"a key the merge did not bring": {base + "m:\n  <<: *b\n  y: 1\n  y: 2\n",
			"line 5: m.y: given on line 4 and again on line 5", 5},
		"flow mapping over two lines": {base + "m: {<<: *b, y: 2,\n  y: 3}\n",
			"line 3: m.y: given on line 2 and again on line 3", 3},
		"explicit keys": {base + "m:\n  <<: *b\n  ? z\n  : 1\n  ? z\n  : 2\n",
			"line 6: m.z: given on line 4 and again on line 6", 6},
		"another mapping": {base + "m:\n  <<: *b\n  x: 2\nn:\n  - a: 1\n    a: 2\n",
			"line 7: n[0].a: given on line 6 and again on line 7", 7},
		"keys read alike": {base + "m:\n  <<: *b\n  yes: 1\n  on: 2\n",
			`line 5: m.on: given on line 4 and again on line 5, as "yes" and "on", both read as true, not as text`, 5},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Split([]byte(tc.in))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			var de *DocumentError
			require.True(t, errors.As(err, &de), "%T", err)
			assert.Equal(t, tc.line, de.Line)
		})
	}
}

// Repeated keys that are not in one mapping, and a key that overrides
// what a YAML merge key brought in, are not duplicates.
func TestReader_SameKeyInDifferentMappingsIsNoDuplicate(t *testing.T) {
	for _, in := range []string{
		`{"kind":"A","metadata":{"kind":"x","name":"a"},"spec":[{"kind":1},{"kind":2}]}`,
		"kind: A\nmetadata:\n  name: a\n  labels:\n    name: b\nspec:\n  items:\n  - name: a\n  - name: a\n",
		"base: &b\n  a: 1\n  c: 3\nx:\n  <<: *b\n  a: 2\nkind: A\n",
		"kind: A\nmetadata: {name: a}\n---\nkind: A\nmetadata: {name: b}\n",
		`{"a":{"b":1},"b":{"a":1},"c":"\"a\":1, \"a\":2"}`,
	} {
		_, err := Split([]byte(in))
		assert.NoError(t, err, in)
	}
	docs, err := Split([]byte("base: &b\n  a: 1\nx:\n  <<: *b\n  a: 2\n"))
	require.NoError(t, err)
	assert.JSONEq(t, `{"base":{"a":1},"x":{"a":2}}`, string(docs[0]), "the override still wins")
}

// duplicateJSON finds a repeated key exactly when some object of the text
// holds one twice, whatever the nesting, the key's escapes and the other
// values around it.
func TestProperty_DuplicateJSONFindsExactlyTheRepeatedKeys(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var b bytes.Buffer
		want := genValue(t, &b, 0)
		js := b.Bytes()
		require.True(t, json.Valid(js), "%s", js)
		first, second, got := duplicateJSON(js)
		require.Equal(t, want, got, "%s", js)
		if got {
			assert.Less(t, first, second)
			assert.Equal(t, keyOf(t, js, first), keyOf(t, js, second), "%s", js)
		}
	})
}

// The scan's folded flag is set exactly when, before any key given
// twice, some object holds two keys that encoding/json would match to
// one field: the same name once case is folded, spelled differently.
func TestProperty_ScanFindsKeysThatDifferOnlyInCase(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var b bytes.Buffer
		if genValue(t, &b, 0) {
			return // the scan stops at the first key given twice
		}
		js := b.Bytes()
		want := false
		for _, keys := range objectKeys(js) {
			for i := range keys {
				for j := range i {
					want = want || (keys[i] != keys[j] && foldName(keys[i]) == foldName(keys[j]))
				}
			}
		}
		require.Equal(t, want, scanKeys(js).folded, "%s", js)
	})
}

// objectKeys lists the keys of each object of js, decoded.
func objectKeys(js []byte) [][]string {
	var out [][]string
	var stack []int // for each open value, its index in out, or -1 for a list
	wantKey := false
	dec := json.NewDecoder(bytes.NewReader(js))
	for {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		top := -1
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if k, ok := tok.(string); ok && top >= 0 && wantKey {
			out[top] = append(out[top], k)
			wantKey = false
			continue
		}
		switch tok {
		case json.Delim('{'):
			out = append(out, nil)
			stack = append(stack, len(out)-1)
			wantKey = true
			continue
		case json.Delim('['):
			stack = append(stack, -1)
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		wantKey = len(stack) > 0 && stack[len(stack)-1] >= 0
	}
}

// genValue writes a random JSON value to b and reports whether one of its
// objects holds a key twice.
func genValue(t *rapid.T, b *bytes.Buffer, depth int) bool {
	kind := rapid.IntRange(0, 4).Draw(t, "kind")
	if depth > 3 {
		kind = 0
	}
	switch kind {
	case 0:
		b.WriteString(rapid.SampledFrom([]string{`1`, `"s"`, `true`, `null`, `"{\"k\":1,"`, `"a,\"b\":"`}).Draw(t, "scalar"))
		return false
	case 1, 2:
		n := rapid.IntRange(0, 3).Draw(t, "len")
		b.WriteByte('[')
		dup := false
		for i := range n {
			if i > 0 {
				b.WriteString(" , ")
			}
			dup = genValue(t, b, depth+1) || dup
		}
		b.WriteByte(']')
		return dup
	}
	n := rapid.IntRange(0, manyKeys+4).Draw(t, "keys")
	seen := map[string]bool{}
	dup := false
	b.WriteString("{\n")
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		k := rapid.SampledFrom([]string{"a", "b", "kind", "k" + strconv.Itoa(i), "\u00e9", "A", "Kind", "\u212aind", "\u00c9"}).Draw(t, "key")
		dup = dup || seen[k]
		seen[k] = true
		q := strconv.Quote(k)
		if rapid.Bool().Draw(t, "escaped") {
			r, size := utf8.DecodeRuneInString(k)
			q = fmt.Sprintf(`"\u%04x%s"`, r, k[size:])
		}
		b.WriteString(q + ": ")
		dup = genValue(t, b, depth+1) || dup
	}
	b.WriteString("}")
	return dup
}

func keyOf(t require.TestingT, js []byte, off int) string {
	var k string
	if err := json.Unmarshal(js[off:skipString(js, off)], &k); err != nil && t != nil {
		t.Errorf("%v", err)
	}
	return k
}

// A key cut off before its closing quote is the decoder's to refuse: the
// scan for repeated keys must neither panic nor report one. The straight
// decode's fuzz target found `{"` panicking here.
func TestDuplicateKey_UnterminatedKeyIsNoDuplicate(t *testing.T) {
	for _, in := range []string{`{"`, `{"a`, `{"a\`, `{"a":1,"`, `{"a":1,"a`, `[{"`, `{"\u`} {
		assert.NoError(t, DuplicateKey([]byte(in)), "%q", in)
	}
}

// An object of many keys looks them up by hash; keys of one hash that
// differ are kept by their text, so a repeat among them is still found
// and two different keys are never one. The test makes every key's hash
// the same, as an input built to collide would.
func TestScanKeys_ManyKeysOfOneHash(t *testing.T) {
	defer func(h func([]byte) uint64) { keyHash = h }(keyHash)
	keyHash = func([]byte) uint64 { return 7 }
	var b bytes.Buffer
	b.WriteString("{")
	for i := range 3 * manyKeys {
		fmt.Fprintf(&b, `"k%d":%d,`, i, i)
	}
	distinct := b.String() + `"z":0}`
	s := scanKeys([]byte(distinct))
	assert.False(t, s.dup, "distinct keys of one hash are no repeat")
	for _, again := range []string{"k3", "k20", "k40"} {
		in := b.String() + `"` + again + `":0}`
		s := scanKeys([]byte(in))
		require.True(t, s.dup, again)
		assert.Equal(t, again, keyOf(nil, []byte(in), s.second))
		assert.Equal(t, again, keyOf(nil, []byte(in), s.first))
	}
}

// Nesting deeper than encoding/json reads (10,000) stops the scan
// instead of growing its stack: millions of open brackets cost their
// bytes, not a frame each (15 MB of {"a":[ took 719 MB in eval).
func TestScanKeys_DeepNestingHoldsABoundedStack(t *testing.T) {
	deep := []byte(strings.Repeat(`{"a":[`, 1_000_000))
	var s keyScan
	alloc := allocated(func() { s = scanKeys(deep) })
	assert.False(t, s.dup)
	assert.Less(t, alloc, uint64(4<<20), "allocated %d bytes for %d bytes of brackets", alloc, len(deep))
	// Within the limit, a repeat at the bottom is found.
	in := strings.Repeat(`{"a":[`, maxNesting/2-1) + `{"k":1,"k":2}` + strings.Repeat(`]}`, maxNesting/2-1)
	assert.True(t, scanKeys([]byte(in)).dup)
}

// The scan reads any text without failing: closers with nothing open, a
// comma outside any object, empty keys beside others; and it folds the
// first and last letters of the alphabet as the decoder folds them.
func TestScanKeys_OddTextAndTheAlphabetsEnds(t *testing.T) {
	for _, in := range []string{`}`, `]{`, `,{"a":1}`, `{"":1,"a":2}`, `{"a":1,"":2}`, `[{"":1},{"":2}]`} {
		assert.False(t, scanKeys([]byte(in)).dup, in)
	}
	assert.True(t, scanKeys([]byte(`{"":1,"":2}`)).dup, "an empty key given twice")
	for _, pair := range [][2]string{{"a", "A"}, {"z", "Z"}, {"aZ", "Az"}, {"k", "\u212a"}} {
		in := fmt.Sprintf(`{%q:1,%q:2}`, pair[0], pair[1])
		assert.True(t, scanKeys([]byte(in)).folded, in)
	}
	for _, pair := range [][2]string{{"a", "b"}, {"`", "@"}, {"{", "["}, {"ab", "a"}} {
		in := fmt.Sprintf(`{%q:1,%q:2}`, pair[0], pair[1])
		assert.False(t, scanKeys([]byte(in)).folded, in)
	}
}

// A Document a caller builds, whose keys no reader scanned, is scanned
// when it is read into a type: its repeat in another case is found.
func TestUnmarshal_DocumentNoReaderScanned(t *testing.T) {
	d := &Document{JSON: json.RawMessage(`{"kind":"A","Kind":"B"}`)}
	var v struct {
		Kind string `json:"kind"`
	}
	err := d.Unmarshal(&v)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `kind: given twice, as "kind" and as "Kind"`)
}
