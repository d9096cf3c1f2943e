package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/manifest"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
)

// widgets is a system none of the command's code knows: Widgets whose
// Ready says whether their size is positive, evaluated from the
// Gadgets they name. It has no Stream, no Check and no CRDs unless a
// test gives it some.
func widgets() *system.System {
	sized := conditions.Reason{Status: metav1.ConditionTrue, Reason: "Sized", Meaning: "the widget has a size", Action: "none"}
	noSize := conditions.Reason{Status: metav1.ConditionFalse, Reason: "NoSize", Meaning: "the widget has no size", Action: "give it one"}
	vocab := conditions.MustVocabulary("example.dev/v1", "Widget", []conditions.Type{
		{Name: "Ready", Required: true, Reasons: []conditions.Reason{sized, noSize}},
	})
	run := func(f *scenario.File, explain bool) ([]scenario.Outcome, error) {
		var out []scenario.Outcome
		for i, raw := range f.Objects {
			var w struct {
				Kind     string
				Metadata struct{ Namespace, Name string }
				Spec     struct{ Size int }
			}
			if err := json.Unmarshal(raw, &w); err != nil {
				return nil, fmt.Errorf("objects[%d]: %w", i, err)
			}
			if w.Kind != "Widget" {
				continue
			}
			c, rule := metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Sized", ObservedGeneration: 1, LastTransitionTime: f.Now}, "widget/ready/sized"
			if w.Spec.Size <= 0 {
				c.Status, c.Reason, c.Message, rule = metav1.ConditionFalse, "NoSize", "spec.size is not positive", "widget/ready/no-size"
			}
			st, _ := json.Marshal(map[string]any{"size": w.Spec.Size})
			o := scenario.Outcome{Kind: "Widget", Namespace: w.Metadata.Namespace, Name: w.Metadata.Name,
				Conditions: []metav1.Condition{c}, Status: st, Write: true}
			if explain {
				o.Computed = o.Conditions
				o.Provenance = []conditions.Provenance{{Type: "Ready", Rule: rule, Evidence: []conditions.Evidence{
					{Object: conditions.ObjectRef{Kind: "Widget", Namespace: w.Metadata.Namespace, Name: w.Metadata.Name},
						Facts: []conditions.Fact{conditions.F("spec.size", fmt.Sprint(w.Spec.Size))}}}}}
			}
			out = append(out, o)
		}
		return out, nil
	}
	return &system.System{
		Name: "widgets",
		Kinds: []system.Kind{
			{Group: "example.dev", Version: "v1", Kind: "Widget", Plural: "widgets", Namespaced: true, Vocabulary: vocab, Status: true},
			{Group: "example.dev", Version: "v1", Kind: "Gadget", Plural: "gadgets", Namespaced: true},
		},
		Rules: []conditions.Rule{
			{ID: "widget/ready/sized", Kind: "Widget", Types: []string{"Ready"}, Sentence: "a widget with a positive size is ready", Writes: []conditions.Reason{sized}},
			{ID: "widget/ready/no-size", Kind: "Widget", Types: []string{"Ready"}, Sentence: "a widget without a size is not", Writes: []conditions.Reason{noSize}},
		},
		Run: run,
	}
}

const widgetStream = `apiVersion: example.dev/v1
kind: Widget
metadata: {namespace: b, name: w2, creationTimestamp: "2026-11-30T09:00:00Z"}
spec: {size: 0}
---
apiVersion: example.dev/v1
kind: Widget
metadata: {namespace: a, name: w1, creationTimestamp: "2026-11-30T09:58:00Z"}
spec: {size: 3}
---
apiVersion: v1
kind: ConfigMap
metadata: {namespace: a, name: unrelated}
`

// runWith runs the command c in-process.
func runWith(t *testing.T, c *Command, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb strings.Builder
	code = c.Run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// A third system gets the whole command: eval's tables (without CRDs,
// one column per condition type), its List, explain's tree, vocab and
// check, every message under the command's own name.
func TestAnySystem_EveryCommandWorksForIt(t *testing.T) {
	c := &Command{Name: "widgets", Systems: []*system.System{widgets()}}

	code, out, errs := runWith(t, c, widgetStream, "eval", "-now", fixedNow)
	if code != exitOK {
		t.Fatalf("eval: code %d, stderr %q", code, errs)
	}
	want := `$ kubectl get widgets -A
NAMESPACE   NAME   READY   AGE
a           w1     True    2m
b           w2     False   60m

Conditions:

Widget a/w1
  TYPE    STATUS   REASON   GEN   LAST TRANSITION        MESSAGE
  Ready   True     Sized    1     2026-11-30T10:00:00Z

Widget b/w2
  TYPE    STATUS   REASON   GEN   LAST TRANSITION        MESSAGE
  Ready   False    NoSize   1     2026-11-30T10:00:00Z   spec.size is not positive
`
	if d := cmp.Diff(want, out); d != "" {
		t.Errorf("eval table (-want +got):\n%s", d)
	}
	if errs != "widgets eval: stdin: skipped 1 manifest(s) of other API groups: only the kinds of example.dev are evaluated\n" {
		t.Errorf("eval stderr %q", errs)
	}

	_, out, _ = runWith(t, c, widgetStream, "eval", "-now", fixedNow, "-o", "yaml")
	containsAll(t, out, "- apiVersion: example.dev/v1\n  kind: Widget\n  metadata:\n    name: w1\n    namespace: a\n  status:\n    conditions:\n",
		"    size: 3\n", "kind: List\n")

	code, out, errs = runWith(t, c, widgetStream, "explain", "-f", "-", "-now", fixedNow, "widget", "b/w2")
	if code != exitOK {
		t.Fatalf("explain: code %d, stderr %q", code, errs)
	}
	want = `Widget b/w2
  Ready=False NoSize (observedGeneration 1)
    ← rule widget/ready/no-size: a widget without a size is not
      ← Widget b/w2
          spec.size: 0
`
	if d := cmp.Diff(want, out); d != "" {
		t.Errorf("explain (-want +got):\n%s", d)
	}

	_, out, _ = runWith(t, c, "", "vocab", "widget")
	containsAll(t, out, "# Widget conditions\n", "| False | `NoSize` | the widget has no size | give it one | transient | `widget/ready/no-size` |\n")

	dir := t.TempDir()
	file := filepath.Join(dir, "w.yaml")
	writeFile(t, file, "name: sized\nsystem: widgets\nnow: \"2026-11-30T10:00:00Z\"\nobjects:\n- {apiVersion: example.dev/v1, kind: Widget, metadata: {namespace: a, name: w}, spec: {size: 1}}\n"+
		"expect:\n- {kind: Widget, namespace: a, name: w, conditionsInclude: [{type: Ready, status: \"True\", reason: Sized}]}\n")
	if code, out, errs := runWith(t, c, "", "check", dir); code != exitOK || out != "1 passed, 0 failed\n" {
		t.Errorf("check: code %d, stdout %q, stderr %q", code, out, errs)
	}
	if code, out, _ := runWith(t, c, "", "eval", "-f", file, "-o", "json"); code != exitOK || !strings.Contains(out, `"reason": "Sized"`) {
		t.Errorf("eval of a scenario: code %d:\n%s", code, out)
	}

	code, _, errs = runWith(t, c, "", "eval", "stray")
	if code != exitUsage || !strings.HasPrefix(errs, "widgets eval: unexpected argument \"stray\"") || !strings.Contains(errs, "run 'widgets eval -h' for usage") {
		t.Errorf("usage error: code %d, stderr %q", code, errs)
	}
	_, out, _ = runWith(t, c, "", "help")
	if !strings.HasPrefix(out, "usage: widgets <command>") || strings.Contains(out, "demo") {
		t.Errorf("help without demo data:\n%s", out)
	}
	if code, _, errs := runWith(t, c, "", "reference", "--system", "binding"); code != exitUsage || !strings.Contains(errs, "--system must be widgets") {
		t.Errorf("reference of a system the command lacks: code %d, stderr %q", code, errs)
	}
	if code, _, errs := runWith(t, c, "", "explain", "-f", "-", "binding"); code != exitUsage || !strings.Contains(errs, `unknown kind "binding"`) {
		t.Errorf("explain of a kind the command lacks: code %d, stderr %q", code, errs)
	}
}

// With CRDs, a kind's table has the columns of its CRD's default view:
// the declared ones of priority 0, in order, a date as an age.
func TestAnySystem_TableColumnsFromTheCRD(t *testing.T) {
	w := widgets()
	w.CRDs = fstest.MapFS{"widgets.yaml": {Data: []byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.dev}
spec:
  group: example.dev
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    additionalPrinterColumns:
    - {name: Reason, type: string, jsonPath: '.status.conditions[?(@.type=="Ready")].reason'}
    - {name: Wide, type: string, jsonPath: .spec.size, priority: 1}
    - {name: Size, type: integer, jsonPath: .status.size}
    - {name: Created, type: date, jsonPath: .metadata.creationTimestamp}
`)}}
	if err := system.Validate(w); err != nil {
		t.Fatal(err)
	}
	c := &Command{Name: "widgets", Systems: []*system.System{w}}
	code, out, errs := runWith(t, c, widgetStream, "eval", "-now", fixedNow)
	if code != exitOK {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
	want := "$ kubectl get widgets -A\n" +
		"NAMESPACE   NAME   REASON   SIZE   CREATED\n" +
		"a           w1     Sized    3      2m\n" +
		"b           w2     NoSize   0      60m\n"
	if !strings.HasPrefix(out, want) {
		t.Errorf("got:\n%s\nwant it to start with:\n%s", out, want)
	}
}

// The seed command and a third system together: each manifest goes to
// its system, the tables come system by system.
func TestAnySystem_BesideTheSeedSystems(t *testing.T) {
	c := &Command{Name: "condengine", Systems: append(seedCmd.Systems[:2:2], widgets())}
	in, err := os.ReadFile(cliData + "/eval/finops.yaml")
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := runWith(t, c, string(in)+"---\n"+widgetStream, "eval", "-now", fixedNow)
	if code != exitOK {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
	books, widgetsAt := strings.Index(out, "$ kubectl get pricebooks -A"), strings.Index(out, "$ kubectl get widgets -A")
	if books < 0 || widgetsAt < books {
		t.Errorf("the FinOps tables, then the Widgets':\n%s", out)
	}
}

func TestJSONPath(t *testing.T) {
	obj := map[string]any{
		"spec": map[string]any{"size": json.Number("3"), "tags": []any{"a", "b"}},
		"status": map[string]any{"conditions": []any{
			map[string]any{"type": "Synced", "status": "True"},
			map[string]any{"type": "Ready", "status": "False", "reason": "NoSize"},
			map[string]any{"type": "Ready", "status": "True", "reason": "Second"},
		}},
	}
	for _, tc := range []struct {
		path string
		want []any
	}{
		{".spec.size", []any{json.Number("3")}},
		{"{.spec.size}", []any{json.Number("3")}},
		{".spec.tags[1]", []any{"b"}},
		{".spec.tags[*]", []any{"a", "b"}},
		{".spec.tags[2]", nil},
		{`.status.conditions[?(@.type=="Ready")].reason`, []any{"NoSize", "Second"}},
		{`.status.conditions[?(@.type=='Ready')].status`, []any{"False", "True"}},
		{`.status.conditions[?(@.type!="Ready")].type`, []any{"Synced"}},
		{`.status.conditions[?(@.type=="Gone")].status`, nil},
		{".spec.missing", nil},
		{".spec..size", nil},
		{"spec.size", nil},
		{".spec.tags[x]", nil},
		{".spec.tags[0", nil},
		{`.status.conditions[?(@.type)]`, nil},
	} {
		if got := jsonPath(obj, tc.path); !cmp.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.path, got, tc.want)
		}
	}
}

// A system's Check reads its own manifests at their place in the stream;
// manifests no system claims are handed (and checked) only to a system
// that reads other kinds (References), else skipped.
func TestAnySystem_CheckAndOtherKinds(t *testing.T) {
	w := widgets()
	w.Check = func(d *manifest.Document) error {
		if h, _ := d.Identify(); h.Kind != "Widget" {
			return d.FailAt("kind", fmt.Errorf("kind: %q is no widget", h.Kind))
		}
		return nil
	}
	c := &Command{Name: "widgets", Systems: []*system.System{w}}
	if code, _, errs := runWith(t, c, widgetStream, "eval", "-now", fixedNow); code != exitOK || !strings.Contains(errs, "skipped 1 manifest(s)") {
		t.Errorf("without References: code %d, stderr %q", code, errs)
	}
	w.References = func([]json.RawMessage) []system.Ref { return nil }
	code, _, errs := runWith(t, c, widgetStream, "eval", "-now", fixedNow)
	if code != exitFail || errs != "widgets eval: stdin: document 3 (ConfigMap a/unrelated), line 12: kind: \"ConfigMap\" is no widget\n" {
		t.Errorf("with References: code %d, stderr %q", code, errs)
	}
	code, _, errs = runWith(t, c, "apiVersion: example.dev/v1\nkind: Gadget\nmetadata: {name: g}\n", "eval", "-now", fixedNow)
	if code != exitFail || !strings.Contains(errs, `document 1 (Gadget g), line 2: kind: "Gadget" is no widget`) {
		t.Errorf("a manifest of the system: code %d, stderr %q", code, errs)
	}
}
