package cli

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/condengine/condengine/conformance"
)

// FuzzReference: whatever a request line holds, reference answers it
// with the request's id or refuses it in one bounded line; it never
// panics.
func FuzzReference(f *testing.F) {
	for seed := range 3 {
		for _, sys := range []string{"binding", "finops"} {
			g, err := conformance.Generate(seedCmd.find(sys), seed)
			if err != nil {
				f.Fatal(err)
			}
			line, err := conformance.EncodeRequest(int64(seed+1), g)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(line, sys == "finops")
		}
	}
	for _, s := range []string{
		`{"name":"n","system":"binding","now":"2026-11-30T10:00:00Z"}`,
		`{"name":"n","id":1,"id":2,"system":"binding","now":"2026-11-30T10:00:00Z"}`,
		`{"name":"n","id":1,"system":"binding","now":"0001-01-01T00:00:00Z"}`,
		`{"name":"n","id":1,"system":"binding","now":null}`,
		`{"id":` + strings.Repeat("9", 500) + `,"name":"n","system":"binding","now":"2026-11-30T10:00:00Z"}`,
		`{"id":1,"name":"n","system":"binding","now":"2026-11-30T10:00:00Z","objects":[{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"List","items":[]}]}]}`,
	} {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, line []byte, finops bool) {
		system := "binding"
		if finops {
			system = "finops"
		}
		answer, err := answerRequest(line, seedCmd.find(system))
		if err != nil {
			if msg := echo(err); len(msg) > maxEcho || strings.ContainsAny(msg, "\r\n") {
				t.Fatalf("the refusal is not one line of at most %d bytes: %q", maxEcho, msg)
			}
			return
		}
		a, err := conformance.DecodeReply(answer)
		if err != nil {
			t.Fatalf("the answer does not read: %v\n%s", err, answer)
		}
		id, _, _ := conformance.DecodeRequest(line, system)
		if a.ID == nil || id == nil || *a.ID != *id {
			t.Fatalf("the answer's id %v is not the request's %v", a.ID, id)
		}
		if bytes.ContainsAny(answer, "\n") {
			t.Fatalf("the answer is more than one line: %q", answer)
		}
	})
}

// echo makes any refusal one line of at most maxEcho bytes, cut on a
// character and marked where it was cut.
func TestReference_EchoIsBounded(t *testing.T) {
	if got := echo(errString("id 1.5 is not\nan integer")); got != "id 1.5 is not an integer" {
		t.Errorf("%q", got)
	}
	for _, msg := range []string{strings.Repeat("é", 3000), strings.Repeat("a\n", 5000), "x" + strings.Repeat(" ", 10000) + "y"} {
		got := echo(errString(msg))
		if len(got) > maxEcho || strings.ContainsAny(got, "\r\n") || !utf8.ValidString(got) || !strings.HasSuffix(got, "…") {
			t.Errorf("%d bytes, ending %q", len(got), got[max(0, len(got)-10):])
		}
	}
}

type errString string

func (e errString) Error() string { return string(e) }
