package runtime

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/condengine/condengine/scenario"
)

const corpus = "../../testdata/scenarios/binding"

// Every binding scenario passes through this runner too, since it is the
// one the conformance tool uses for the binding system.
func TestScenarios_BindingCorpus(t *testing.T) {
	scenario.Runners{scenario.SystemBinding: RunScenario}.Test(t, corpus)
}

func TestScenarios_WriterFilesExist(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(corpus, "writer-*.yaml"))
	require.NoError(t, err)
	assert.GreaterOrEqual(t, len(files), 15)
	for _, p := range files {
		f, err := scenario.Load(p)
		require.NoError(t, err)
		for _, e := range f.Expect {
			assert.NotNil(t, e.Decision, "%s states no decision", p)
		}
	}
}

// The prober's schedule has its own vectors: each states a pass.
func TestScenarios_ProberFilesExist(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(corpus, "prober-*.yaml"))
	require.NoError(t, err)
	assert.GreaterOrEqual(t, len(files), 15)
	for _, p := range files {
		f, err := scenario.Load(p)
		require.NoError(t, err)
		require.NotEmpty(t, f.Expect, p)
		for _, e := range f.Expect {
			assert.Equal(t, scenario.KindProber, e.Kind, p)
			assert.NotNil(t, e.Pass, "%s states no pass", p)
		}
	}
}

// A scenario whose expectation is wrong must fail, or the corpus proves
// nothing.
func TestRunScenario_WrongDecisionFails(t *testing.T) {
	f, err := scenario.Load(filepath.Join(corpus, "writer-changed-within-gap-waits.yaml"))
	require.NoError(t, err)
	write := "write"
	f.Expect[0].Decision = &write
	res := scenario.Runners{scenario.SystemBinding: RunScenario}.Run(f)
	assert.False(t, res.Passed())
	assert.Contains(t, res.Diff, "Decision")
}

func TestParseWriterBlock_BadInput(t *testing.T) {
	for name, tc := range map[string]struct{ raw, want string }{
		"UnknownKey":       {`{"bindingz": []}`, "unknown field"},
		"NotNamespaceName": {`{"bindings": [{"binding": "chat"}]}`, `"chat" is not namespace/name`},
		"TooManySlashes":   {`{"bindings": [{"binding": "a/b/c"}]}`, "is not namespace/name"},
		"NegativeFailures": {`{"bindings": [{"binding": "a/b", "failures": -1}]}`, "must not be negative"},
		"ListedTwice":      {`{"bindings": [{"binding": "a/b"}, {"binding": "a/b"}]}`, "listed twice"},
		"NegativeGap":      {`{"limits": {"writeGap": "-5s"}}`, "WriteGap is -5s"},
		"BadDuration":      {`{"limits": {"quiet": "soon"}}`, "writer"},
	} {
		t.Run(name, func(t *testing.T) {
			_, _, err := ParseWriterBlock([]byte(tc.raw))
			assert.ErrorContains(t, err, tc.want)
		})
	}
	_, lim, err := ParseWriterBlock(nil)
	require.NoError(t, err)
	assert.Equal(t, DefaultLimits(), lim)
}

func TestRunScenario_WriterNamesUnknownBinding(t *testing.T) {
	f, err := scenario.Load(filepath.Join(corpus, "writer-unchanged-none.yaml"))
	require.NoError(t, err)
	f.Writer = []byte(`{"bindings": [{"binding": "team-a/ghost"}]}`)
	_, err = RunScenario(f)
	assert.ErrorContains(t, err, "team-a/ghost is not a Binding")
}

func TestRunScenario_WithoutWriterBlock_DecidesWithEmptyMemory(t *testing.T) {
	f, err := scenario.Load(filepath.Join(corpus, "ready-all-true.yaml"))
	require.NoError(t, err)
	outs, err := RunScenario(f)
	require.NoError(t, err)
	require.Len(t, outs, 2, "the Binding and the prober")
	assert.Equal(t, "write", outs[0].Decision)
	assert.False(t, outs[0].Fight)
	assert.True(t, outs[0].WaitUntil.IsZero())
	p := outs[1]
	require.Equal(t, scenario.KindProber, p.Kind)
	assert.Equal(t, "default", p.Name)
	require.NotNil(t, p.Pass)
	assert.True(t, p.Pass.Start, "no pass has run and the broker started an hour ago")
	assert.Equal(t, []scenario.PassTarget{{Binding: "team-a/chat", Generation: 1}}, p.Pass.Targets)
}

func TestParseProberBlock_BadInput(t *testing.T) {
	for name, tc := range map[string]struct{ raw, want string }{
		"UnknownKey":         {`{"lastPass": "2026-11-30T10:00:00Z"}`, "unknown field"},
		"UnknownTrigger":     {`{"triggers": [{"kind": "configmap", "at": "2026-11-30T10:00:00Z"}]}`, `"configmap" is not leaderStart, config or secret`},
		"TriggerWithoutTime": {`{"triggers": [{"kind": "config"}]}`, "prober.triggers[0].at is required"},
		"UnknownCovered":     {`{"lastCovered": {"period": "2026-11-30T10:00:00Z"}}`, `"period" is not`},
		"OddConcurrency":     {`{"limits": {"concurrency": 3}}`, "Concurrency is 3"},
		"ZeroPeriod":         {`{"limits": {"period": "0s"}}`, "Period is 0s"},
	} {
		t.Run(name, func(t *testing.T) {
			_, _, err := ParseProberBlock([]byte(tc.raw))
			assert.ErrorContains(t, err, tc.want)
		})
	}
	_, lim, err := ParseProberBlock(nil)
	require.NoError(t, err)
	assert.Equal(t, DefaultLimits(), lim)
}

func TestCause_ScenarioName(t *testing.T) {
	for c, want := range map[Cause]string{CauseLeaderStart: "leaderStart", CauseConfig: "config", CauseSecret: "secret",
		CausePeriodic: "periodic", CauseNone: "none", Cause(-1): "none"} {
		assert.Equal(t, want, c.ScenarioName())
	}
}
