package conformance_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
)

// widgets is a system no tool of the module knows: Widgets whose Ready
// says whether their size is positive, whose finalizer goes once they
// are deleted, and whose write is held back while the observed block
// lists them as held.
func widgets() *system.System {
	writes := []conditions.Reason{{Status: metav1.ConditionTrue, Reason: "Sized"}, {Status: metav1.ConditionFalse, Reason: "NoSize"}, {Status: metav1.ConditionUnknown, Reason: "Never"}}
	rules := []conditions.Rule{
		{ID: "widget/ready/sized", Kind: "Widget", Types: []string{"Ready"}, Sentence: "a widget with a positive size is ready", Writes: writes[:1]},
		{ID: "widget/ready/no-size", Kind: "Widget", Types: []string{"Ready"}, Sentence: "a widget without a size is not", Writes: writes[1:2]},
		{ID: "widget/ready/never", Kind: "Widget", Types: []string{"Ready"}, Sentence: "no widget is ever unknown", Writes: writes[2:]},
	}
	const finalizer = "widgets.example.dev/finalizer"
	run := func(f *scenario.File, explain bool) ([]scenario.Outcome, error) {
		var observed struct {
			Held []string `json:"held"`
		}
		if err := f.DecodeObserved(&observed); err != nil {
			return nil, err
		}
		var out []scenario.Outcome
		for i, raw := range f.Objects {
			var w struct {
				Kind     string
				Metadata struct {
					Namespace, Name   string
					DeletionTimestamp *metav1.Time
				}
				Spec struct{ Size int }
			}
			if err := json.Unmarshal(raw, &w); err != nil {
				return nil, fmt.Errorf("objects[%d]: %w", i, err)
			}
			if w.Kind != "Widget" {
				continue
			}
			c, rule := metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Sized", LastTransitionTime: f.Now}, "widget/ready/sized"
			if w.Spec.Size <= 0 {
				c.Status, c.Reason, rule = metav1.ConditionFalse, "NoSize", "widget/ready/no-size"
			}
			o := scenario.Outcome{Kind: "Widget", Namespace: w.Metadata.Namespace, Name: w.Metadata.Name,
				Conditions: []metav1.Condition{c}, Status: json.RawMessage(`{}`), Write: true}
			if slices.Contains(observed.Held, w.Metadata.Namespace+"/"+w.Metadata.Name) {
				o.RetryAt = f.Now.Add(10 * time.Second)
			}
			if w.Metadata.DeletionTimestamp != nil {
				o.Finalizer = conditions.FinalizerRemove
			}
			if explain {
				o.Computed, o.Provenance = o.Conditions, []conditions.Provenance{{Type: "Ready", Rule: rule}}
			}
			out = append(out, o)
		}
		return out, nil
	}
	generate := func(seed int) (*scenario.File, error) {
		r := rand.New(rand.NewPCG(uint64(seed), 1))
		f := &scenario.File{Name: "widgets", System: "widgets", Now: metav1.NewTime(time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC))}
		var held []string
		for i := range 1 + r.IntN(6) {
			name := fmt.Sprintf("w%d", i)
			deleted := ""
			if r.IntN(4) == 0 {
				deleted = `, "deletionTimestamp": "2026-11-30T09:00:00Z"`
			}
			f.Objects = append(f.Objects, json.RawMessage(fmt.Sprintf(
				`{"apiVersion": "example.dev/v1", "kind": "Widget", "metadata": {"namespace": "a", "name": %q%s}, "spec": {"size": %d}}`,
				name, deleted, r.IntN(4)-1)))
			if r.IntN(3) == 0 {
				held = append(held, "a/"+name)
			}
		}
		if held != nil {
			f.Observed, _ = json.Marshal(map[string]any{"held": held})
		}
		return f, nil
	}
	return &system.System{
		Name: "widgets",
		Kinds: []system.Kind{{Group: "example.dev", Version: "v1", Kind: "Widget", Plural: "widgets", Namespaced: true,
			Vocabulary: conditions.MustVocabulary("example.dev/v1", "Widget", []conditions.Type{{Name: "Ready", Reasons: writes}}),
			Status:     true, Finalizer: finalizer}},
		Rules:                rules,
		Run:                  run,
		Generate:             generate,
		Unreachable:          map[string]string{"widget/ready/never": "every widget has a size or none"},
		UnreachableDecisions: map[string]string{"Widget/skip=ConfigMapRoute": "widgets have no ConfigMap route"},
	}
}

// A system declared as a value goes through the whole conformance
// driver: the engine agrees with itself, a wrong implementation is
// caught and shrunk (the observed block's lists too), the counterexample
// passes the system's runner, and coverage is read from its provenance.
func TestAnySystem_ThroughTheConformanceDriver(t *testing.T) {
	sys := widgets()
	require.NoError(t, system.Validate(sys))

	res, err := conformance.Run(sys, conformance.Reference(sys), conformance.Options{Runs: 50})
	require.NoError(t, err)
	assert.Nil(t, res.Counterexample)
	assert.Positive(t, res.Reached["widget/ready/sized"])
	assert.Positive(t, res.Reached["widget/ready/no-size"])
	report := conformance.CoverageReport(sys, res.Reached)
	assert.Contains(t, report, "rules reached: 2 of 4\n", "the two reachable rules of four, the shared ones counted")
	assert.Contains(t, report, "rules never reached: any/stale-snapshot, any/other-writer\n")
	assert.Contains(t, report, "rule no snapshot can reach: widget/ready/never (every widget has a size or none)")

	// Its decision outcomes follow from its one kind, a status kind with a
	// finalizer: every widget is written, so no reason not to write comes
	// up, and the finalizer is never added.
	assert.Positive(t, res.Decisions["Widget/write=true"])
	assert.Positive(t, res.Decisions["Widget/retryAt"])
	decisions := conformance.DecisionReport(sys, res.Decisions)
	assert.Contains(t, decisions, "decisions reached: 4 of 10\n")
	assert.Contains(t, decisions, "  Widget/finalizer=Remove")
	assert.Contains(t, decisions, "decisions never reached: Widget/write=false, Widget/skip=Stale, Widget/skip=Unchanged, Widget/skip=NotLeader, Widget/skip=Held, Widget/finalizer=Add\n")
	assert.Contains(t, decisions, "decision no snapshot can reach: Widget/skip=ConfigMapRoute (widgets have no ConfigMap route)")

	// A host that reads a size of zero as a size.
	wrong := func(f *scenario.File) ([]conformance.Object, error) {
		objs, err := conformance.Reference(sys)(f)
		for i := range objs {
			for j := range objs[i].Conditions {
				if c := &objs[i].Conditions[j]; c.Reason == "NoSize" {
					c.Status, c.Reason = metav1.ConditionTrue, "Sized"
				}
			}
		}
		return objs, err
	}
	c, err := conformance.Differential(sys, wrong, conformance.Options{Runs: 50})
	require.NoError(t, err)
	require.NotNil(t, c)
	assert.Len(t, c.File.Objects, 1, "shrunk to the one widget")
	assert.Contains(t, c.File.Name, "counterexample: widgets snapshot")
	if len(c.File.Observed) > 0 {
		var o struct{ Held []string }
		require.NoError(t, json.Unmarshal(c.File.Observed, &o))
		assert.Empty(t, o.Held, "the held list is shrunk away: it does not matter")
	}
	path := filepath.Join(t.TempDir(), "cx.yaml")
	require.NoError(t, c.WriteFile(path))
	results, err := system.Runners(sys).RunPaths(path)
	require.NoError(t, err)
	assert.True(t, results[0].Passed(), "%v %s", results[0].Err, results[0].Diff)
}

// The decision keys of an answer come from the outcome, for any system:
// write, the finalizer's removal and the retry of a held write.
func TestReference_DecisionKeysFromTheOutcome(t *testing.T) {
	sys := widgets()
	f, err := scenario.Parse([]byte(`
name: held and deleted
system: widgets
now: "2026-11-30T10:00:00Z"
objects:
  - {apiVersion: example.dev/v1, kind: Widget, metadata: {namespace: a, name: w, deletionTimestamp: "2026-11-30T09:00:00Z"}, spec: {size: 1}}
  - {apiVersion: example.dev/v1, kind: Widget, metadata: {namespace: a, name: x}, spec: {size: 1}}
observed:
  held: [a/w]
expect:
  - {kind: Widget, namespace: a, name: w, finalizerRemoved: true, retryAt: "2026-11-30T10:00:10Z", write: true}
  - {kind: Widget, namespace: a, name: x, finalizerRemoved: false, retryAt: none}
`))
	require.NoError(t, err)
	assert.True(t, system.Runners(sys).Run(f).Passed())
	objs, err := conformance.Reference(sys)(f)
	require.NoError(t, err)
	require.Len(t, objs, 2)
	assert.True(t, *objs[0].Write)
	assert.True(t, *objs[0].RemoveFinalizer)
	require.NotNil(t, objs[0].RetryAt)
	assert.Equal(t, time.Date(2026, 11, 30, 10, 0, 10, 0, time.UTC), *objs[0].RetryAt)
	assert.False(t, *objs[1].RemoveFinalizer)
	assert.Nil(t, objs[1].RetryAt)

	_, err = conformance.Reference(sys)(&scenario.File{System: "binding"})
	assert.ErrorContains(t, err, `the scenario is of system "binding"; this reference is of "widgets"`)
}

// A system without a generator cannot be drawn from, and says so.
func TestGenerate_WithoutAGenerator(t *testing.T) {
	sys := widgets()
	sys.Generate = nil
	_, err := conformance.Generate(sys, 0)
	assert.EqualError(t, err, `system "widgets" has no generator (System.Generate), so no snapshot of it can be drawn`)
}

// The shrinker drops the entries of every list at the top of the
// observed block, as it drops objects.
func TestShrink_DropsObservedEntries(t *testing.T) {
	f := &scenario.File{Name: "x", System: "widgets",
		Observed: json.RawMessage(`{"held": ["a/1", "a/2", "a/3", "a/4", "a/5"], "jobs": [1, 2, 3], "mode": "fast"}`)}
	shrunk := conformance.Shrink(f, func(c *scenario.File) bool {
		return strings.Contains(string(c.Observed), `"a/4"`)
	}, 100)
	assert.JSONEq(t, `{"held": ["a/4"], "jobs": [], "mode": "fast"}`, string(shrunk.Observed))
	assert.Contains(t, string(f.Observed), `"a/1"`, "the file given is left as it was")
}

// A run until coverage waits for the decision outcomes as for the rules:
// while one a snapshot can reach has not come out, it goes on to the
// last snapshot; once the system declares the ones it cannot reach, it
// stops as soon as the rest came out.
func TestRun_UntilCoverageCountsDecisions(t *testing.T) {
	sys := widgets()
	sys.Unreachable["any/stale-snapshot"] = "widgets are never stale"
	sys.Unreachable["any/other-writer"] = "widgets have no other writer"
	res, err := conformance.Run(sys, conformance.Reference(sys), conformance.Options{Runs: 60, UntilCoverage: 1})
	require.NoError(t, err)
	assert.Equal(t, 60, res.Runs, "Widget/write=false never comes out, so the run goes to its end")
	for _, d := range []string{"Widget/write=false", "Widget/skip=Stale", "Widget/skip=Unchanged", "Widget/skip=NotLeader", "Widget/skip=Held", "Widget/finalizer=Add"} {
		sys.UnreachableDecisions[d] = "every widget is written and keeps its finalizer"
	}
	require.NoError(t, system.Validate(sys))
	res, err = conformance.Run(sys, conformance.Reference(sys), conformance.Options{Runs: 60, UntilCoverage: 1})
	require.NoError(t, err)
	assert.Less(t, res.Runs, 60, "every reachable rule and decision came out before the end")
	for _, d := range conformance.SystemDecisions(sys) {
		assert.Positive(t, res.Decisions[d], d)
	}
}
