package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// crlfReference is what crReader gives for in: every CR not followed by
// LF read as LF.
func crlfReference(in []byte) []byte {
	out := bytes.Clone(in)
	for i, c := range out {
		if c == '\r' && (i+1 == len(out) || out[i+1] != '\n') {
			out[i] = '\n'
		}
	}
	return out
}

// However the input is cut into reads (one byte at a time, half of what
// is asked, an error with the last bytes), a lone CR comes out as LF and
// a CR before LF as itself.
func TestCRReader_LoneCRIsLFWhateverTheReads(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := []byte(rapid.StringOf(rapid.SampledFrom([]rune{'a', '\r', '\n', '-'})).Draw(t, "in"))
		cut := rapid.IntRange(0, 3).Draw(t, "cut")
		var src io.Reader = bytes.NewReader(in)
		switch cut {
		case 1:
			src = iotest.OneByteReader(src)
		case 2:
			src = iotest.HalfReader(src)
		case 3:
			src = iotest.DataErrReader(src)
		}
		c := newCRReader(src)
		if rapid.Bool().Draw(t, "small buffer") {
			c.buf = make([]byte, rapid.IntRange(2, 5).Draw(t, "size"))
		}
		out, err := io.ReadAll(iotest.OneByteReader(c))
		if err != nil {
			t.Fatal(err)
		}
		if want := crlfReference(in); !bytes.Equal(out, want) {
			t.Fatalf("%q gave %q, want %q", in, out, want)
		}
	})
}

// A reader that returns nothing and no error is asked again rather than
// read as the end: a CR held from before waits for the byte after it.
func TestCRReader_EmptyReadKeepsTheHeldCR(t *testing.T) {
	c := newCRReader(&emptyThen{parts: [][]byte{[]byte("a\r"), nil, []byte("\nb\r"), nil}})
	out, err := io.ReadAll(c)
	require.NoError(t, err)
	assert.Equal(t, "a\r\nb\n", string(out))
}

// emptyThen returns its parts one read each, nil as a read of nothing,
// then io.EOF.
type emptyThen struct{ parts [][]byte }

func (e *emptyThen) Read(p []byte) (int, error) {
	if len(e.parts) == 0 {
		return 0, io.EOF
	}
	n := copy(p, e.parts[0])
	e.parts = e.parts[1:]
	return n, nil
}

// lineEnds are the three ways a line may end.
var lineEnds = []string{"\n", "\r\n", "\r"}

// withLineEnds writes text, whose lines end in LF, with the line ends
// ends gives for each line in turn. An empty line after a lone CR does
// not end in LF alone: the two would be one CRLF.
func withLineEnds(text string, ends func(i int) string) string {
	lines := strings.SplitAfter(text, "\n")
	var b strings.Builder
	last := ""
	for i, l := range lines {
		body, ok := strings.CutSuffix(l, "\n")
		if !ok {
			b.WriteString(l)
			continue
		}
		end := ends(i)
		if body == "" && last == "\r" && end == "\n" {
			end = "\r\n"
		}
		b.WriteString(body + end)
		last = end
	}
	return b.String()
}

// genDocument draws a document that names the object name, in one of
// the forms a stream holds: block or flow YAML, JSON on one line or
// many, a comment or blank lines around it, a block scalar.
func genDocument(t *rapid.T, name string) string {
	var doc string
	switch rapid.IntRange(0, 4).Draw(t, "form") {
	case 0:
		doc = fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\n", name)
	case 1:
		doc = fmt.Sprintf("{kind: ConfigMap, metadata: {name: %s}}\n", name)
	case 2:
		doc = fmt.Sprintf(`{"kind": "ConfigMap", "metadata": {"name": %q}}`+"\n", name)
	case 3:
		doc = fmt.Sprintf("{\n  \"kind\": \"ConfigMap\",\n  \"metadata\": {\n    \"name\": %q\n  }\n}\n", name)
	default:
		doc = fmt.Sprintf("kind: ConfigMap\nmetadata:\n  name: %s\ndata:\n  note: |\n    two\n    lines\n  folded: >\n    one\n    line\n", name)
	}
	if rapid.Bool().Draw(t, "comment before") {
		doc = "# about " + name + "\n\n" + doc
	}
	if rapid.Bool().Draw(t, "blank after") {
		doc += "\n"
	}
	return doc
}

// readNames reads in, Lists expanded, and returns each object's name,
// JSON (compacted: a JSON document keeps its spaces and line ends as
// written) and line, and the first error.
func readNames(in string) (names, js []string, lines []int, err error) {
	r := NewReader(strings.NewReader(in))
	r.File = "stream.yaml"
	for {
		d, err := r.Next()
		if errors.Is(err, io.EOF) {
			return names, js, lines, nil
		}
		if err != nil {
			return names, js, lines, err
		}
		err = d.Expand(func(d *Document) error {
			names = append(names, d.Header.Metadata.Name)
			var c bytes.Buffer
			if err := json.Compact(&c, d.JSON); err != nil {
				return err
			}
			js = append(js, c.String())
			lines = append(lines, d.Line)
			return nil
		})
		if err != nil {
			return names, js, lines, err
		}
	}
}

// No document is lost, whatever the line ends: a stream of N documents,
// written with LF, CRLF or lone CR line ends (each line its own, or one
// for the whole stream), a byte order mark before the stream or before
// each document or none, reads as N documents, each the JSON and on the
// line the stream written with LF gives. With one document broken, the
// error names that document and the ones before it are read.
func TestReader_NoDocumentLostWhateverTheLineEnds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 6).Draw(t, "documents")
		broken := rapid.IntRange(0, n).Draw(t, "broken") // 0: none
		var want []string
		var b strings.Builder
		bomEach := rapid.IntRange(0, 2).Draw(t, "bom") // none, the stream's, each document's
		for i := 1; i <= n; i++ {
			if i > 1 {
				b.WriteString(rapid.SampledFrom([]string{"---\n", "--- # next\n", "---   \n"}).Draw(t, "separator"))
			}
			if bomEach == 2 || (bomEach == 1 && i == 1) {
				b.WriteString(string(bom))
			}
			name := fmt.Sprintf("doc%d", i)
			if i == broken {
				b.WriteString("kind: ConfigMap\nmetadata: {name: [" + name + "\n")
				continue
			}
			want = append(want, name)
			b.WriteString(genDocument(t, name))
		}
		lf := b.String()
		var ends func(int) string
		if rapid.Bool().Draw(t, "mixed") {
			per := rapid.SliceOfN(rapid.SampledFrom(lineEnds), 1, -1).Draw(t, "ends")
			ends = func(i int) string { return per[i%len(per)] }
		} else {
			end := rapid.SampledFrom(lineEnds).Draw(t, "end")
			ends = func(int) string { return end }
		}
		in := withLineEnds(lf, ends)

		names, js, lines, err := readNames(in)
		wantNames, wantJS, wantLines, wantErr := readNames(strings.ReplaceAll(lf, string(bom), ""))
		if broken == 0 {
			if err != nil {
				t.Fatalf("%q: %v", in, err)
			}
			if strings.Join(names, ",") != strings.Join(want, ",") {
				t.Fatalf("%q: read %v, want %v", in, names, want)
			}
		} else {
			var de *DocumentError
			if !errors.As(err, &de) || de.Index != broken {
				t.Fatalf("%q: error %v does not name document %d", in, err, broken)
			}
			if strings.Join(names, ",") != strings.Join(want[:broken-1], ",") {
				t.Fatalf("%q: read %v before the error, want %v", in, names, want[:broken-1])
			}
			if wantErr == nil || err.Error() != wantErr.Error() {
				t.Fatalf("%q: error %v, with LF %v", in, err, wantErr)
			}
		}
		assert.Equal(t, wantNames, names)
		assert.Equal(t, wantJS, js, "the same JSON as with LF line ends")
		assert.Equal(t, wantLines, lines, "the same lines as with LF line ends: %q", in)
	})
}

// The repro: CR line ends, two Bindings; both are read.
func TestReader_CRLineEndsSplitDocuments(t *testing.T) {
	in := "apiVersion: agentkourier.dev/v1alpha1\rkind: Binding\rmetadata: {namespace: a, name: first, uid: u1}\r---\rapiVersion: agentkourier.dev/v1alpha1\rkind: Binding\rmetadata: {namespace: a, name: second, uid: u2}\r"
	names, _, lines, err := readNames(in)
	require.NoError(t, err)
	assert.Equal(t, []string{"first", "second"}, names)
	assert.Equal(t, []int{1, 5}, lines)
}

// A byte order mark before a JSON List leaves it a List read item by
// item, within a document limit smaller than the List.
func TestReader_BOMBeforeAJSONListKeepsItItemByItem(t *testing.T) {
	in := string(bom) + kubectlList(50)
	got, err := readItems(in, Limits{Document: int64(len(in) / 10)})
	require.NoError(t, err)
	require.Len(t, got, 50)
	assert.True(t, strings.HasPrefix(got[0], "1 items[0] line 4 {"), got[0])
}

// Text after a "..." line, which ends a YAML document, would be read by
// nobody: it is refused at its line, not dropped.
func TestReader_TextAfterDocumentEndIsRefused(t *testing.T) {
	_, _, _, err := readNames("kind: A\nmetadata: {name: a}\n...\nkind: B\nmetadata: {name: b}\n")
	require.Error(t, err)
	assert.Equal(t, "stream.yaml: document 1, line 4: text after a ... line, which ends a YAML document: the decoder would drop it; start another document with a --- line", err.Error())

	for _, ok := range []string{"kind: A\nmetadata: {name: a}\n...\n", "kind: A\nmetadata: {name: a}\n... # end\n\n# c\n---\nkind: B\nmetadata: {name: b}\n", "kind: A\nmetadata: {name: a, x: ....}\n"} {
		_, _, _, err := readNames(ok)
		assert.NoError(t, err, ok)
	}
}
