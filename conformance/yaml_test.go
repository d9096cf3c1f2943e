package conformance

import (
	"encoding/json"
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
