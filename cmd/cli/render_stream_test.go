package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/condengine/condengine/cmd/internal/genstream"
	"github.com/condengine/condengine/scenario"
)

// Writing each Binding as its outcome is decided (evalTo) prints what
// evaluating everything first and rendering the world afterwards
// prints, byte for byte, notes included: on the objects of every binding
// scenario of the corpus as a manifest stream (Bindings of other
// brokers, left out as repeated, in every state, between the decided
// ones), as a JSON List of them, and on a generated stream.
func TestEval_WrittenAsDecidedIsTheRenderedWorld(t *testing.T) {
	now, _ := time.Parse(time.RFC3339, fixedNow)
	var inputs []struct {
		name string
		data []byte
	}
	add := func(name string, data []byte) {
		inputs = append(inputs, struct {
			name string
			data []byte
		}{name, data})
	}
	files, err := filepath.Glob("../../conformance/scenarios/binding/*.yaml")
	if err != nil || len(files) < 50 {
		t.Fatalf("binding scenarios: %d, %v", len(files), err)
	}
	for _, path := range files {
		f, err := scenario.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		var stream, list bytes.Buffer
		list.WriteString(`{"apiVersion": "v1", "kind": "List", "items": [`)
		for i, o := range f.Objects {
			if i > 0 {
				stream.WriteString("---\n")
				list.WriteString(",\n")
			}
			stream.Write(o)
			stream.WriteString("\n")
			list.Write(o)
		}
		list.WriteString("]}\n")
		add(filepath.Base(path), stream.Bytes())
		add(filepath.Base(path)+" as a List", list.Bytes())
	}
	var gen bytes.Buffer
	if err := genstream.Write(&gen, 3000, 30); err != nil {
		t.Fatal(err)
	}
	add("genstream", gen.Bytes())
	// Bindings the engine leaves out (one UID on three Bindings) sort
	// between the decided ones, and keep the conditions they were read
	// with.
	for _, name := range []string{"chat-10a", "chat-20a"} {
		gen.WriteString("---\napiVersion: agentkourier.dev/v1alpha1\nkind: Binding\nmetadata: {namespace: team-0, name: " + name +
			", uid: 6f1c2a3b-00000000-4000-8000-000000000000, generation: 1}\n" +
			"spec: {agent: {backendRef: {name: echo}}, chat: {connectionRef: {name: slack}, channel: C9}}\n" +
			"status: {conditions: [{type: Ready, status: \"False\", reason: Old, message: as read, lastTransitionTime: \"2026-01-01T00:00:00Z\"}]}\n")
	}
	add("genstream with a repeated UID", gen.Bytes())

	decided := 0
	for _, in := range inputs {
		for _, format := range []string{"yaml", "json"} {
			var want, wantNotes strings.Builder
			w, werr := seedCmd.evaluateInput("in", bytes.NewReader(in.data), now)
			if werr == nil {
				for _, n := range w.notes {
					wantNotes.WriteString(n + "\n")
				}
				if err := render(&want, format, w); err != nil {
					t.Fatal(err)
				}
			}
			var got, gotNotes strings.Builder
			gerr := seedCmd.evalTo(&got, format, "in", bytes.NewReader(in.data), now, func(notes []string) {
				for _, n := range notes {
					gotNotes.WriteString(n + "\n")
				}
			})
			if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
				t.Fatalf("%s -o %s: error %v, want %v", in.name, format, gerr, werr)
			}
			if got.String() != want.String() {
				t.Fatalf("%s -o %s: written as decided:\n%s\nwant, rendered afterwards:\n%s", in.name, format, got.String(), want.String())
			}
			if gotNotes.String() != wantNotes.String() {
				t.Fatalf("%s -o %s: notes\n%s\nwant\n%s", in.name, format, gotNotes.String(), wantNotes.String())
			}
			if werr == nil && !w.empty() {
				decided++
			}
		}
	}
	if decided < len(inputs) {
		t.Errorf("only %d of %d runs had Bindings to write", decided, 2*len(inputs)) // most do
	}
}

// An error in the evaluation leaves the output empty, as before results
// were written as they were made.
func TestEval_AnErrorWritesNothing(t *testing.T) {
	now, _ := time.Parse(time.RFC3339, fixedNow)
	in := "apiVersion: agentkourier.dev/v1alpha1\nkind: Binding\nmetadata: {namespace: a, name: b}\nspec: {agent: 3}\n"
	var out bytes.Buffer
	err := seedCmd.evalTo(&out, "yaml", "in", strings.NewReader(in), now, func([]string) { t.Error("notes handed on after an error") })
	if err == nil || out.Len() > 0 {
		t.Fatalf("err %v, output %q", err, out.String())
	}
}

// FuzzWrittenAsDecided holds writing as decided equal to rendering
// afterwards on any input, in both List formats: the same output, the
// same notes, the same error, and nothing written on an error.
func FuzzWrittenAsDecided(f *testing.F) {
	for _, name := range []string{"list.yaml", "finops.yaml", "../check/connection-not-found.yaml"} {
		data, err := os.ReadFile(cliData + "/eval/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	var gen bytes.Buffer
	if err := genstream.Write(&gen, 12, 2); err != nil {
		f.Fatal(err)
	}
	f.Add(gen.Bytes())
	now, _ := time.Parse(time.RFC3339, fixedNow)
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) > 64<<10 {
			t.Skip()
		}
		for _, format := range []string{"yaml", "json"} {
			var want, got strings.Builder
			var wantNotes, gotNotes []string
			w, werr := seedCmd.evaluateInput("stdin", bytes.NewReader(in), now)
			if werr == nil {
				wantNotes = w.notes
				if err := render(&want, format, w); err != nil {
					t.Fatal(err)
				}
			}
			gerr := seedCmd.evalTo(&got, format, "stdin", bytes.NewReader(in), now, func(n []string) { gotNotes = n })
			if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
				t.Fatalf("-o %s: error %v, want %v", format, gerr, werr)
			}
			if gerr != nil && got.Len() > 0 {
				t.Fatalf("-o %s: %q written before the error %v", format, got.String(), gerr)
			}
			if got.String() != want.String() || strings.Join(gotNotes, "\n") != strings.Join(wantNotes, "\n") {
				t.Fatalf("-o %s: written as decided\n%s%q\nwant\n%s%q", format, got.String(), gotNotes, want.String(), wantNotes)
			}
		}
	})
}
