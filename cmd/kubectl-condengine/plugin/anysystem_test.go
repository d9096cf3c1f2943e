package plugin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	dynamicfake "k8s.io/client-go/dynamic/fake"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
)

// widgets is a system none of the plugin's code knows: a Widget is
// Ready when its size is positive. It has no Cluster, so the plugin
// evaluates it once with Run and judges every condition.
func widgets() *system.System {
	sized := conditions.Reason{Status: metav1.ConditionTrue, Reason: "Sized"}
	noSize := conditions.Reason{Status: metav1.ConditionFalse, Reason: "NoSize"}
	run := func(f *scenario.File, explain bool) ([]scenario.Outcome, error) {
		var out []scenario.Outcome
		for _, raw := range f.Objects {
			var w struct {
				Kind     string
				Metadata struct{ Namespace, Name string }
				Spec     struct{ Size int }
			}
			if err := json.Unmarshal(raw, &w); err != nil {
				return nil, err
			}
			c, rule := metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Sized", LastTransitionTime: f.Now}, "widget/ready/sized"
			if w.Spec.Size <= 0 {
				c.Status, c.Reason, rule = metav1.ConditionFalse, "NoSize", "widget/ready/no-size"
			}
			o := scenario.Outcome{Kind: w.Kind, Namespace: w.Metadata.Namespace, Name: w.Metadata.Name, Conditions: []metav1.Condition{c}}
			if explain {
				o.Computed = o.Conditions
				o.Provenance = []conditions.Provenance{{Type: "Ready", Rule: rule, Evidence: []conditions.Evidence{
					{Object: conditions.ObjectRef{Kind: w.Kind, Namespace: w.Metadata.Namespace, Name: w.Metadata.Name},
						Facts: []conditions.Fact{conditions.F("spec.size", fmt.Sprint(w.Spec.Size))}}}}}
			}
			out = append(out, o)
		}
		return out, nil
	}
	return &system.System{
		Name: "widgets",
		Kinds: []system.Kind{{Group: "example.dev", Version: "v1", Kind: "Widget", Plural: "widgets", Namespaced: true, Status: true,
			Vocabulary: conditions.MustVocabulary("example.dev/v1", "Widget", []conditions.Type{{Name: "Ready", Reasons: []conditions.Reason{sized, noSize}}})}},
		Rules: []conditions.Rule{
			{ID: "widget/ready/sized", Kind: "Widget", Types: []string{"Ready"}, Sentence: "a widget with a size is ready", Writes: []conditions.Reason{sized}},
			{ID: "widget/ready/no-size", Kind: "Widget", Types: []string{"Ready"}, Sentence: "a widget without one is not", Writes: []conditions.Reason{noSize}},
		},
		Run: run,
	}
}

// A third system's plugin audits and explains its objects, under its own
// name, reading only its own kinds.
func TestAnySystem_AuditAndExplain(t *testing.T) {
	objs := []runtime.Object{}
	for _, doc := range []string{
		`{"apiVersion":"example.dev/v1","kind":"Widget","metadata":{"namespace":"a","name":"empty"},"spec":{"size":0},` +
			`"status":{"conditions":[{"type":"Ready","status":"True","reason":"Sized","message":"","lastTransitionTime":"2026-11-30T09:00:00Z"}]}}`,
		`{"apiVersion":"example.dev/v1","kind":"Widget","metadata":{"namespace":"a","name":"big"},"spec":{"size":9},` +
			`"status":{"conditions":[{"type":"Ready","status":"True","reason":"Sized","message":"","lastTransitionTime":"2026-11-30T09:00:00Z"}]}}`,
	} {
		var m map[string]any
		if err := json.Unmarshal([]byte(doc), &m); err != nil {
			t.Fatal(err)
		}
		objs = append(objs, &unstructured.Unstructured{Object: m})
	}
	client := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{{Group: "example.dev", Version: "v1", Resource: "widgets"}: "WidgetList"}, objs...)
	newReader := func(*genericclioptions.ConfigFlags) (*reader, error) {
		return &reader{client: client, mapper: meta.NewDefaultRESTMapper(nil)}, nil
	}
	p := &Plugin{Name: "widgets", Systems: []*system.System{widgets()}}
	now := func() time.Time { return auditNow }

	var out, errb bytes.Buffer
	code := p.run([]string{"audit", "-A"}, &out, &errb, newReader, now)
	if code != exitDrift {
		t.Fatalf("audit: code %d, stderr %q\n%s", code, errb.String(), out.String())
	}
	rows := tableRows(out.String())
	if len(rows) < 2 || !hasAll(rows[1], []string{"Widget", "a", "empty", "Ready", "status,reason", "True/Sized", "False/NoSize"}) {
		t.Errorf("rows %q", rows)
	}
	if !strings.Contains(out.String(), "← rule widget/ready/no-size: a widget without one is not\n") ||
		!strings.HasSuffix(out.String(), "2 objects audited, 1 drifted\n") {
		t.Errorf("audit:\n%s", out.String())
	}
	assertReadOnly(t, client)

	out.Reset()
	errb.Reset()
	if code := p.run([]string{"explain", "widget", "a/big"}, &out, &errb, newReader, now); code != exitOK {
		t.Fatalf("explain: code %d, stderr %q", code, errb.String())
	}
	want := "Widget a/big\n  Ready=True Sized (observedGeneration 0)\n    ← rule widget/ready/sized: a widget with a size is ready\n      ← Widget a/big\n          spec.size: 9\n"
	if out.String() != want {
		t.Errorf("explain:\n%s\nwant:\n%s", out.String(), want)
	}

	out.Reset()
	errb.Reset()
	if code := p.run([]string{"explain", "binding", "a/big"}, &out, &errb, newReader, now); code != exitError || !strings.Contains(errb.String(), `unknown kind "binding"`) {
		t.Errorf("explain of a kind the plugin lacks: code %d, stderr %q", code, errb.String())
	}
	out.Reset()
	if code := p.run([]string{"--help"}, &out, &errb, newReader, now); code != exitOK || !strings.Contains(out.String(), "kubectl widgets") {
		t.Errorf("help: code %d\n%s", code, out.String())
	}
}
