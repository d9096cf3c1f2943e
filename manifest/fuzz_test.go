package manifest

// Fuzzing: each target checks invariants, not only "no panic", and runs
// well over 1,000 executions a second on one core because it reads small
// inputs under small Limits (64 KiB a document, 256 KiB a stream), so a
// mutation that grows the input hits a limit instead of a slow path.
//
//	go test ./manifest -run '^$' -fuzz '^FuzzReader$' -fuzztime 30s -fuzzminimizetime 5s
//
// -fuzzminimizetime bounds how long a failing input is shrunk (the
// default, 60 s, is long on a laptop); -parallel 1 measures one core.

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

var fuzzLimits = Limits{Document: 64 << 10, Stream: 256 << 10}

// readAll reads every document of data, Lists expanded, under fuzzLimits.
func readAll(data []byte) ([]*Document, error) {
	return readDocs(data, "fuzz.yaml", fuzzLimits)
}

// readDocs reads every document of data, Lists expanded, naming the
// input file, under limits.
func readDocs(data []byte, file string, limits Limits) ([]*Document, error) {
	r := NewReader(bytes.NewReader(data))
	r.File = file
	r.Limits = limits
	var out []*Document
	for {
		d, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		if err := d.Expand(func(it *Document) error {
			it.source = nil // the reader's buffer is reused by Next
			out = append(out, it)
			return nil
		}); err != nil {
			return out, err
		}
	}
}

// FuzzReader: every error is a DocumentError of this file with its
// document counted from 1; every document read is valid JSON and numbered
// in order; reading is deterministic; and writing the documents back as a
// JSON stream and reading that gives the same documents (round trip).
func FuzzReader(f *testing.F) {
	for _, s := range []string{
		"kind: A\n---\nkind: B\n", `{"kind":"List","items":[{"kind":"A"},{"kind":"List","items":[{"kind":"B"}]}]}`,
		"# c\n---\n---\nnull\n", "kind: [x\n", "--- x\n", "{\"a\": \"\xff\"}", "a: 1e400\n", "{a: b}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := readAll(data)
		if err != nil {
			var de *DocumentError
			if !errors.As(err, &de) || de.File != "fuzz.yaml" || de.Index < 0 || de.Line < 0 {
				t.Fatalf("error %#v is not a DocumentError of fuzz.yaml", err)
			}
			if strings.TrimSpace(de.Error()) == "" {
				t.Fatal("an error must say something")
			}
		}
		again, err2 := readAll(data)
		if (err == nil) != (err2 == nil) || len(again) != len(docs) || (err != nil && err.Error() != err2.Error()) {
			t.Fatalf("not deterministic: %v / %v", err, err2)
		}
		var stream bytes.Buffer
		last := 0
		for i, d := range docs {
			if !json.Valid(d.JSON) {
				t.Fatalf("document %d is not JSON: %q", d.Index, d.JSON)
			}
			if d.Index < 1 || d.Index < last {
				t.Fatalf("document numbers %d after %d", d.Index, last)
			}
			last = d.Index
			if !bytes.Equal(d.JSON, again[i].JSON) {
				t.Fatalf("not deterministic: %q / %q", d.JSON, again[i].JSON)
			}
			if d.Item == "" {
				stream.Write(d.JSON)
				stream.WriteString("\n---\n")
			}
		}
		if err != nil {
			return
		}
		var whole []json.RawMessage
		for _, d := range docs {
			if d.Item == "" {
				whole = append(whole, d.JSON)
			}
		}
		back, err := Split(stream.Bytes())
		if err != nil {
			t.Fatalf("documents written back do not read: %v", err)
		}
		if len(back) != len(whole) {
			t.Fatalf("round trip: %d documents, then %d", len(whole), len(back))
		}
		for i := range back {
			a, errA := decodeNumbers(whole[i])
			b, errB := decodeNumbers(back[i])
			if errA != nil || errB != nil {
				t.Fatalf("round trip: document %d no longer decodes", i+1)
			}
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			if !bytes.Equal(ja, jb) {
				t.Fatalf("round trip changed document %d: %s -> %s", i+1, ja, jb)
			}
		}
	})
}

func decodeNumbers(js []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}
