package cli

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/condengine/condengine/cmd/internal/genstream"
)

func TestEval_Golden(t *testing.T) {
	for _, tc := range []struct{ golden, file, format string }{
		{"eval-list.txt", "list.yaml", "table"},
		{"eval-list.yaml", "list.yaml", "yaml"},
		{"eval-list.json", "list.yaml", "json"},
		{"eval-finops.txt", "finops.yaml", "table"},
		{"eval-scenario.yaml", "../check/connection-not-found.yaml", "yaml"},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			runGolden(t, tc.golden, "eval", "-f", cliData+"/eval/"+tc.file, "-o", tc.format, "-now", fixedNow)
		})
	}
}

func TestEval_YAMLAndJSONAreTheSameList(t *testing.T) {
	_, y, _ := run(t, "", "eval", "-f", cliData+"/eval/list.yaml", "-o", "yaml", "-now", fixedNow)
	_, j, _ := run(t, "", "eval", "-f", cliData+"/eval/list.yaml", "-o", "json", "-now", fixedNow)
	var fromYAML, fromJSON any
	if err := yaml.Unmarshal([]byte(y), &fromYAML); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(j), &fromJSON); err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(fromYAML)
	b, _ := json.Marshal(fromJSON)
	if string(a) != string(b) {
		t.Fatalf("yaml and json differ:\n%s\n%s", a, b)
	}
}

func TestEval_Stdin_SkippedKindsNoted(t *testing.T) {
	in, err := os.ReadFile(cliData + "/eval/list.yaml")
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, string(in), "eval", "-now", fixedNow)
	if code != exitOK || !strings.Contains(out, "team-a      first") {
		t.Fatalf("code %d, stdout %q, stderr %q", code, out, errs)
	}
	if !strings.Contains(errs, "stdin: skipped 1 manifest(s)") {
		t.Errorf("stderr %q", errs)
	}
}

func TestEval_ScenarioUsesItsOwnNow(t *testing.T) {
	_, out, _ := run(t, "", "eval", "-f", cliData+"/check/connection-not-found.yaml", "-now", "2030-01-01T00:00:00Z")
	if !strings.Contains(out, "2026-11-30T10:00:00Z") || strings.Contains(out, "2030") {
		t.Fatalf("output:\n%s", out)
	}
}

// Every bad input names the file, the document and the field, exits 1,
// and never panics.
func TestEval_BadInput_NamesFileDocumentAndField(t *testing.T) {
	const binding = "apiVersion: agentkourier.dev/v1alpha1\nkind: Binding\nmetadata: {name: b, namespace: ns}\n"
	for _, tc := range []struct{ name, in, want string }{
		{"bad YAML", binding + "---\nkind: [unclosed\n", "stdin: document 2, line 5: not valid YAML: "},
		{"not an object", "- a\n- b\n", "stdin: document 1, line 1: a manifest must be an object"},
		{"scalar", "just text\n", "stdin: document 1, line 1: a manifest must be an object"},
		{"missing kind", "apiVersion: v1\nmetadata: {name: x}\n", "stdin: document 1, line 1: kind: required"},
		{"missing apiVersion", "kind: Binding\nmetadata: {name: x}\n", "stdin: document 1 (Binding x), line 1: apiVersion: required"},
		{"missing name", "apiVersion: agentkourier.dev/v1alpha1\nkind: Binding\nmetadata: {namespace: ns}\n", "stdin: document 1 (Binding), line 3: metadata.name: required"},
		{"unknown kind", "---\n" + binding + "---\napiVersion: agentkourier.dev/v1alpha1\nkind: Bindng\nmetadata: {name: x, namespace: ns}\n", `stdin: document 2 (Bindng ns/x), line 7: kind: "Bindng" is not a kind of agentkourier.dev`},
		{"wrong version", "apiVersion: agentkourier.dev/v2\nkind: Binding\nmetadata: {name: x, namespace: ns}\n", "stdin: document 1 (Binding ns/x), line 1: apiVersion:"},
		{"wrong type", binding + "spec: {chat: {channel: [C1]}}\n", "stdin: document 1 (Binding ns/b), line 4: spec.chat.channel: must be a string, not a list"},
		{"wrong metadata type", "apiVersion: agentkourier.dev/v1alpha1\nkind: Binding\nmetadata: {name: x, generation: two}\n", `stdin: document 1 (Binding x), line 3: metadata.generation: must be an integer, not "two"`},
		{"list item", "apiVersion: v1\nkind: List\nitems:\n- " + strings.ReplaceAll(binding, "\n", "\n  ") + "spec: 7\n", "stdin: document 1, items[0] (Binding ns/b), line 7: spec: must be a mapping, not the number 7"},
		{"list items wrong type", "apiVersion: v1\nkind: List\nitems: 3\n", "stdin: document 1 (List), line 3: items: must be a list, not a number"},
		{"finops wrong type", "apiVersion: finops.stakater.com/v1alpha1\nkind: PriceBook\nmetadata: {name: p, namespace: ns}\nspec: {rates: {cpuHour: 3}}\n", "stdin: document 1 (PriceBook ns/p), line 4: spec.rates.cpuHour: must be a string, not the number 3"},
		{"finops unknown kind", "apiVersion: finops.stakater.com/v1alpha1\nkind: Wat\nmetadata: {name: p, namespace: ns}\n", `stdin: document 1 (Wat ns/p), line 2: kind: "Wat" is not a kind of finops.stakater.com`},
		{"finops repeated", "apiVersion: finops.stakater.com/v1alpha1\nkind: CostJob\nmetadata: {name: p, namespace: ns}\n---\napiVersion: finops.stakater.com/v1alpha1\nkind: CostJob\nmetadata: {name: p, namespace: ns}\n", "stdin: document 2 (CostJob ns/p), line 7: metadata.name: CostJob ns/p is listed again (first in document 1, line 1)"},
		{"empty", "# nothing\n---\n", "stdin: no documents"},
		{"scenario then more", "name: x\nsystem: binding\nnow: \"2026-11-30T10:00:00Z\"\nexpect: []\n---\na: b\n", "stdin: document 2, line 6: a scenario file holds one document"},
		{"unknown field", binding + "spec: {chat: {chanel: C1}}\n", "stdin: document 1 (Binding ns/b), line 4: spec.chat.chanel: unknown field"},
		{"generation 1e400", "apiVersion: agentkourier.dev/v1alpha1\nkind: Binding\nmetadata: {name: x, generation: 1e400}\n", `metadata.generation: must be a whole number no larger than 9223372036854775807, and 1e400 is larger`},
		{"JSON syntax", "{\"apiVersion\": \"v1\",\n \"kind\": \"ConfigMap\" \"x\"}\n", "stdin: document 1, line 2: not valid JSON: invalid character"},
		{"invalid UTF-8 in JSON", "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\",\n \"metadata\": {\"name\": \"a\xffb\"}}\n", "stdin: document 1, line 2: metadata.name: not valid UTF-8"},
		{"invalid UTF-8 in YAML", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a\xffb}\n", "stdin: document 1, line 3: not valid UTF-8"},
		{"duplicate of another kind", "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: s}\n", "stdin: document 2 (Secret s), line 7: metadata.name: Secret s is listed again"},
		{"bad scenario", "name: x\nsystem: cobol\nnow: \"2026-11-30T10:00:00Z\"\nexpect: []\n", `stdin: document 1, line 2: scenario: system "cobol"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(t, tc.in, "eval", "-now", fixedNow)
			if code != exitFail {
				t.Fatalf("code %d, want %d; stdout %q stderr %q", code, exitFail, out, errs)
			}
			if !strings.Contains(errs, tc.want) {
				t.Errorf("stderr %q lacks %q", errs, tc.want)
			}
			if strings.Count(strings.TrimSpace(errs), "\n") > 0 {
				t.Errorf("error is not one line: %q", errs)
			}
		})
	}
}

func TestEval_MissingFile_Exit1(t *testing.T) {
	code, _, errs := run(t, "", "eval", "-f", cliData+"/nope.yaml")
	if code != exitFail || !strings.Contains(errs, "nope.yaml") {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
}

// FuzzEval runs the command on arbitrary input. Inputs over 64 KiB are
// skipped, so each execution stays a small stream:
//
//	go test ./cmd/cli -run '^$' -fuzz '^FuzzEval$' -fuzztime 30s -fuzzminimizetime 5s
func FuzzEval(f *testing.F) {
	for _, name := range []string{"list.yaml", "finops.yaml", "../check/connection-not-found.yaml"} {
		data, err := os.ReadFile(cliData + "/eval/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("apiVersion: v1\nkind: List\nitems: [{kind: Binding}]\n"))
	// Each input is evaluated twice: the output is the same bytes, an
	// error is one line naming stdin, and a success prints something.
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) > 64<<10 {
			t.Skip()
		}
		code, out, errs := run(t, string(in), "eval", "-now", fixedNow, "-o", "yaml")
		if code != exitOK && code != exitFail {
			t.Fatalf("code %d", code)
		}
		code2, out2, errs2 := run(t, string(in), "eval", "-now", fixedNow, "-o", "yaml")
		if code2 != code || out2 != out || errs2 != errs {
			t.Fatalf("not deterministic: %d %q %q / %d %q %q", code, out, errs, code2, out2, errs2)
		}
		if code == exitFail {
			if !strings.HasPrefix(errs, "condengine eval: stdin: ") || strings.Count(errs, "\n") != 1 {
				t.Fatalf("error %q is not one line naming stdin", errs)
			}
		} else if out == "" {
			t.Fatal("success printed nothing")
		}
	})
}

// `genstream -n 1500 | condengine eval`: the table's columns hold past
// kubectl's 500-row chunks, every row lined up with the header.
func TestEval_TableColumnsHoldForTheWholeTable(t *testing.T) {
	var in strings.Builder
	if err := genstream.Write(&in, 1500, 7); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, in.String(), "eval", "-now", fixedNow)
	if code != exitOK {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
	lines := strings.Split(out, "\n")
	head := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "NAMESPACE ") {
			head = i
			break
		}
	}
	if head < 0 {
		t.Fatalf("no table:\n%s", out)
	}
	col := func(l string, n int) int { // where the n-th cell begins
		i := 0
		for range n {
			for i < len(l) && l[i] != ' ' {
				i++
			}
			for i < len(l) && l[i] == ' ' {
				i++
			}
		}
		return i
	}
	want := []int{col(lines[head], 1), col(lines[head], 2)}
	rows := 0
	for _, l := range lines[head+1:] {
		if l == "" {
			break
		}
		rows++
		if got := []int{col(l, 1), col(l, 2)}; got[0] != want[0] || got[1] != want[1] {
			t.Fatalf("row %d begins its cells at %v, the header at %v:\n%s\n%s", rows, got, want, lines[head], l)
		}
	}
	if rows != 1500 {
		t.Fatalf("%d rows, want 1500", rows)
	}
}

// A limit of zero or less is refused by eval as by check, by its path.
func TestEval_RefusesLimitsCheckRefuses(t *testing.T) {
	path := t.TempDir() + "/limits.yaml"
	writeFile(t, path, "name: a zero gap\nsystem: binding\nnow: \"2026-11-30T10:00:00Z\"\nwriter: {limits: {writeGap: 0s}}\nexpect: []\n")
	for _, args := range [][]string{{"eval", "-f", path}, {"check", path}} {
		code, out, errs := run(t, "", args...)
		if code == exitOK || !strings.Contains(out+errs, "writer.limits.writeGap: 0s must be positive") {
			t.Errorf("%s: code %d, output %q %q", args[0], code, out, errs)
		}
	}
}

// A stream whose lines end in a lone CR (old Mac files, some editors) is
// split at its --- lines like any other: every Binding is evaluated, the
// second as well as the first, with or without a byte order mark.
func TestEval_CRLineEndsLoseNoDocument(t *testing.T) {
	const in = "apiVersion: agentkourier.dev/v1alpha1\rkind: Binding\rmetadata: {namespace: a, name: first, uid: u1}\r---\rapiVersion: agentkourier.dev/v1alpha1\rkind: Binding\rmetadata: {namespace: a, name: second, uid: u2}\r"
	for _, stream := range []string{in, "\xef\xbb\xbf" + in, strings.ReplaceAll(in, "\r", "\r\n")} {
		code, out, errs := run(t, stream, "eval", "-now", fixedNow, "-o", "yaml")
		if code != exitOK {
			t.Fatalf("exit %d, stderr %q", code, errs)
		}
		containsAll(t, out, "name: first", "name: second")
	}
}
