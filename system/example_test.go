package system_test

import (
	"encoding/json"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
)

// A system of one kind, Widget, declared as a value: its kind, its rule
// and a Run that reads a scenario's objects. The same value then serves
// every tool: here the scenario runner and kind lookup.
func Example() {
	rules := []conditions.Rule{{
		ID: "widget/ready/sized", Kind: "Widget", Types: []string{"Ready"},
		Sentence: "a widget with a positive size is ready",
		Writes:   []conditions.Reason{{Status: metav1.ConditionTrue, Reason: "Sized"}, {Status: metav1.ConditionFalse, Reason: "NoSize"}},
	}}
	vocab := conditions.MustVocabulary("example.dev/v1", "Widget", []conditions.Type{{Name: "Ready", Reasons: rules[0].Writes}})
	widgets := &system.System{
		Name:  "widgets",
		Doc:   "widgets of example.dev",
		Kinds: []system.Kind{{Group: "example.dev", Version: "v1", Kind: "Widget", Plural: "widgets", ShortNames: []string{"wg"}, Namespaced: true, Vocabulary: vocab, Status: true}},
		Rules: rules,
		Run: func(f *scenario.File, _ bool) ([]scenario.Outcome, error) {
			var out []scenario.Outcome
			for _, raw := range f.Objects {
				var w struct {
					Metadata struct{ Namespace, Name string }
					Spec     struct{ Size int }
				}
				if err := json.Unmarshal(raw, &w); err != nil {
					return nil, err
				}
				c := metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Sized"}
				if w.Spec.Size <= 0 {
					c.Status, c.Reason = metav1.ConditionFalse, "NoSize"
				}
				out = append(out, scenario.Outcome{Kind: "Widget", Namespace: w.Metadata.Namespace, Name: w.Metadata.Name,
					Conditions: []metav1.Condition{c}, Write: true})
			}
			return out, nil
		},
	}
	fmt.Println("valid:", system.Validate(widgets) == nil)

	k, err := system.ResolveKind("WG", widgets)
	fmt.Println("wg is", k.Kind, k.APIVersion(), err)

	f, err := scenario.Parse([]byte(`
name: an empty widget is not ready
system: widgets
now: "2026-11-30T10:00:00Z"
objects:
  - {apiVersion: example.dev/v1, kind: Widget, metadata: {namespace: a, name: w}, spec: {size: 0}}
expect:
  - {kind: Widget, namespace: a, name: w, conditions: [{type: Ready, status: "False", reason: NoSize}], write: true}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("passed:", system.Runners(widgets).Run(f).Passed())
	// Output:
	// valid: true
	// wg is Widget example.dev/v1 <nil>
	// passed: true
}
