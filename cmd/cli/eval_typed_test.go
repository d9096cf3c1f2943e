package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/condengine/condengine/cmd/internal/genstream"
)

// evalOutput is `eval -o yaml` of in, read straight or in full: the
// output, or the error's text.
func evalOutput(t testing.TB, in []byte, straight bool) (string, int) {
	now, _ := time.Parse(time.RFC3339, fixedNow)
	s := seedCmd.newStream("stdin", bytes.NewReader(in))
	s.straight = straight
	w, err := seedCmd.evaluateFrom(s, now)
	if err != nil {
		return "error: " + err.Error(), s.decoded
	}
	var out strings.Builder
	if err := render(&out, "yaml", w); err != nil {
		return "render error: " + err.Error(), s.decoded
	}
	for _, n := range w.notes {
		out.WriteString("note: " + n + "\n")
	}
	return out.String(), s.decoded
}

// asList is the documents of a YAML stream as one JSON List, as
// `kubectl get -o json` prints it; indent as json.MarshalIndent takes it.
func asList(t testing.TB, stream []byte, indent string) []byte {
	var items []any
	for _, doc := range bytes.Split(stream, []byte("\n---\n")) {
		var o map[string]any
		if err := yaml.Unmarshal(doc, &o); err != nil {
			t.Fatal(err)
		}
		if o != nil {
			items = append(items, o)
		}
	}
	list := map[string]any{"apiVersion": "v1", "kind": "List", "metadata": map[string]any{"resourceVersion": ""}, "items": items}
	var out []byte
	var err error
	if indent == "" {
		out, err = json.Marshal(list)
	} else {
		out, err = json.MarshalIndent(list, "", indent)
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func genStream(t testing.TB, n, namespaces int) []byte {
	var b bytes.Buffer
	if err := genstream.Write(&b, n, namespaces); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A kubectl List, a stream of JSON objects and a YAML stream are decoded
// straight, and eval prints of them what the full reading prints.
func TestStraight_KubectlListIsDecodedStraight(t *testing.T) {
	stream := genStream(t, 300, 7)
	list := asList(t, stream, "    ")
	var objects [][]byte
	for _, doc := range bytes.Split(stream, []byte("\n---\n")) {
		var o map[string]any
		if err := yaml.Unmarshal(doc, &o); err != nil || o == nil {
			continue
		}
		js, _ := json.MarshalIndent(o, "", "  ")
		objects = append(objects, js)
	}
	for name, tc := range map[string]struct {
		in      []byte
		decoded int
	}{
		// A JSON List is read item by item: each item is a document.
		"kubectl List":         {list, len(objects)},
		"compact List":         {asList(t, stream, ""), len(objects)},
		"stream of JSON":       {bytes.Join(objects, []byte("\n---\n")), len(objects)},
		"two Lists, one twice": {append(append(asList(t, stream, ""), "\n---\n"...), list...), len(objects)},
		"YAML stream":          {stream, 300 + 2*7},
	} {
		t.Run(name, func(t *testing.T) {
			want, full := evalOutput(t, tc.in, false)
			got, decoded := evalOutput(t, tc.in, true)
			if full != 0 || decoded != tc.decoded {
				t.Errorf("%d documents decoded straight (%d in full mode), want %d", decoded, full, tc.decoded)
			}
			if got != want {
				t.Fatalf("straight:\n%.2000s\nfull:\n%.2000s", got, want)
			}
		})
	}
}

// FuzzStraightDecode holds the straight decode to the full reading: the
// same output from the same objects, or the same error.
//
//	go test ./cmd/cli -run '^$' -fuzz '^FuzzStraightDecode$' -fuzztime 60s
func FuzzStraightDecode(f *testing.F) {
	stream := genStream(f, 12, 3)
	f.Add(stream)
	f.Add(asList(f, stream, "  "))
	f.Add(asList(f, stream, ""))
	f.Add([]byte(`{"apiVersion":"agentkourier.dev/v1alpha1","kind":"Binding","metadata":{"name":"a","namespace":"n"},"spec":{"agent":{"backendRef":{"name":"b"}},"chat":{"connectionRef":{"name":"c"},"channel":"C1"}},"Kind":"AgentBackend"}`))
	f.Add([]byte(`{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"agentkourier.dev/v1alpha1","kind":"Binding","metadata":{"name":"a"},"spec":{}},{"apiVersion":"agentkourier.dev/v1alpha1","kind":"Binding","metadata":{"name":"a"},"spec":{}}]}`))
	f.Add([]byte(`{"apiVersion":"v1","items":[{"apiVersion":"v1","kind":"List","items":[]}],"kind":"List"}`))
	for _, name := range []string{"list.yaml", "finops.yaml"} {
		if data, err := os.ReadFile(cliData + "/eval/" + name); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) > 64<<10 {
			t.Skip()
		}
		want, _ := evalOutput(t, in, false)
		got, _ := evalOutput(t, in, true)
		if got != want {
			t.Fatalf("straight:\n%s\nfull:\n%s", got, want)
		}
	})
}

// An object cannot rename itself with a key in another case: eval
// refuses name and Name (metadata and Metadata, spec and Spec) in one
// mapping as the full reading and binding.Decode do, where the straight
// decode used to evaluate the first object below as a/zz.
func TestStraight_KeyInAnotherCaseIsRefused(t *testing.T) {
	const head = `{"apiVersion":"agentkourier.dev/v1alpha1","kind":"Binding",`
	for in, want := range map[string]string{
		head + `"metadata":{"namespace":"a","name":"b1","Name":"zz","uid":"u"}}`:                               `stdin: document 1, line 1: metadata.name: given twice on line 1, as "name" and as "Name"`,
		head + `"metadata":{"namespace":"a","name":"b1","uid":"u"},"Metadata":{"namespace":"a","name":"zz"}}`:  `stdin: document 1, line 1: metadata: given twice on line 1, as "metadata" and as "Metadata"`,
		head + `"metadata":{"namespace":"a","name":"b1"},"spec":{"chat":{"channel":"C1"}},"Spec":{"chat":{}}}`: `stdin: document 1 (Binding a/b1), line 1: spec: given twice on line 1, as "spec" and as "Spec"`,
	} {
		code, out, errs := run(t, in, "eval", "-now", fixedNow)
		if code != exitFail || strings.Contains(out, "zz") {
			t.Fatalf("%s: exit %d, stdout %q", in, code, out)
		}
		containsAll(t, errs, want)
	}
}
