package conformance

import (
	"encoding/json"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/yaml"
)

// FuzzToYAML: any JSON object renders as YAML that reads back as the
// same JSON, whatever its strings and keys hold.
func FuzzToYAML(f *testing.F) {
	f.Add("name", "a\x01b\u0085c\u2028\"'\\: #x")
	f.Add("yes", "null")
	f.Add("- k", "")
	f.Fuzz(func(t *testing.T, k, v string) {
		doc := map[string]any{"name": "x", k: []any{v, map[string]any{k: v, "n": 1.5}, map[string]any{}, []any{}}}
		js, err := json.Marshal(doc)
		if err != nil {
			return
		}
		y, err := toYAML(js)
		if err != nil {
			t.Fatal(err)
		}
		back, err := yaml.ToJSON(y)
		if err != nil {
			t.Fatalf("%v in:\n%s", err, y)
		}
		var a, b any
		if err := json.Unmarshal(js, &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(back, &b); err != nil {
			t.Fatal(err)
		}
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Fatalf("round trip changed\n%s\ninto\n%s\nvia\n%s", ja, jb, y)
		}
	})
}

// A key longer than YAML's 1024-character limit for "key:" is written
// in the explicit form and reads back whole, as a long Binding or
// condition field name from a generated snapshot must.
func TestToYAML_LongKeyReadsBack(t *testing.T) {
	for _, n := range []int{maxImplicitKey - 2, maxImplicitKey - 1, maxImplicitKey, 2000} {
		k := strings.Repeat("é", n/2) + strings.Repeat("k", n%2)
		js, err := json.Marshal(map[string]any{"name": "x", k: []any{"v", map[string]any{k: 1}}})
		if err != nil {
			t.Fatal(err)
		}
		y, err := toYAML(js)
		if err != nil {
			t.Fatal(err)
		}
		back, err := yaml.ToJSON(y)
		if err != nil {
			t.Fatalf("key of %d bytes: %v in:\n%s", len(k), err, y)
		}
		var a, b any
		_ = json.Unmarshal(js, &a)
		_ = json.Unmarshal(back, &b)
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Fatalf("key of %d bytes changed:\n%s\ninto\n%s", len(k), ja, jb)
		}
	}
}
