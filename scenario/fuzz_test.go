package scenario

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzParse feeds arbitrary bytes to the scenario parser and the checker:
// neither may panic, and a parsed file always has the required keys.
func FuzzParse(f *testing.F) {
	f.Add([]byte(sample))
	f.Add([]byte("name: x\nsystem: finops\nnow: \"2026-11-30T10:00:00Z\"\nexpect: [{kind: A, name: b, status: {a: null}}]\n"))
	f.Add([]byte("{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse(data)
		if err != nil {
			return
		}
		if file.Name == "" || file.Now.IsZero() || strings.TrimSpace(file.System) == "" {
			t.Fatalf("parsed a file without its required keys: %+v", file)
		}
		var got []Outcome
		for _, e := range file.Expect {
			got = append(got, Outcome{Kind: e.Kind, Namespace: e.Namespace, Name: e.Name, Status: json.RawMessage(`{"a":[1]}`)})
		}
		_ = file.Check(got)
	})
}
