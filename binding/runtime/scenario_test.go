package runtime

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/condengine/condengine/scenario"
)

const corpus = "../../conformance/scenarios/binding"

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
	require.Len(t, outs, 1)
	assert.Equal(t, "write", outs[0].Decision)
	assert.False(t, outs[0].Fight)
	assert.True(t, outs[0].WaitUntil.IsZero())
}
