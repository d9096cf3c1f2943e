package scenario

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzParse feeds arbitrary bytes to the scenario parser, the checker
// and the observed block's reader: none may panic, and a parsed file
// always has the required keys.
func FuzzParse(f *testing.F) {
	f.Add([]byte(sample))
	f.Add([]byte("name: x\nsystem: finops\nnow: \"2026-11-30T10:00:00Z\"\nexpect: [{kind: A, name: b, status: {a: null}}]\n"))
	f.Add([]byte("{}"))
	f.Add([]byte("name: x\nsystem: db\nnow: \"2026-11-30T10:00:00Z\"\nobserved:\n  jobs: [{name: j, tries: 2}]\nexpect: [{kind: A, name: b, retryAt: none}]\n"))
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
		// A system reads the observed block into its own type: any block
		// that parsed is read or refused, never a panic.
		var observed struct {
			Jobs []struct {
				Name  string `json:"name"`
				Tries int    `json:"tries"`
			} `json:"jobs"`
		}
		_ = file.DecodeObserved(&observed)
	})
}
