package bindingtest_test

import (
	"encoding/json"
	"io/fs"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/bindingtest"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
)

// The binding system's value keeps the contract, its kinds agreeing
// with their CRDs in config/crd (names, short names, scope).
func TestSystem_IsValid(t *testing.T) {
	s := bindingtest.System()
	require.NoError(t, system.Validate(s))
	assert.Equal(t, []string{"Binding"}, s.StatusKinds())
	assert.Equal(t, "agent-kourier", s.FieldManager)
	entries, err := fs.Glob(s.CRDs, "*.yaml")
	require.NoError(t, err)
	assert.Len(t, entries, 3, "the CRDs of the system's three kinds, no other")
	assert.NotSame(t, s, bindingtest.System(), "each call returns a new value")
}

// With explain, each Binding's outcome also carries the computed list
// and one provenance entry per condition of it, naming rules of the
// table; nothing else of the outcome changes.
func TestRun_ExplainAddsProvenance(t *testing.T) {
	f, err := scenario.Load(filepath.Join(bindingCorpus, "ready-all-true.yaml"))
	require.NoError(t, err)
	plain, err := bindingtest.Run(f, false)
	require.NoError(t, err)
	explained, err := bindingtest.Run(f, true)
	require.NoError(t, err)
	require.Len(t, explained, len(plain))
	ids := map[string]bool{}
	for _, r := range append(binding.Rules(), conditions.SharedRules()...) {
		ids[r.ID] = true
	}
	o := explained[0]
	require.Equal(t, "Binding", o.Kind)
	require.NotEmpty(t, o.Computed)
	require.Len(t, o.Provenance, len(o.Computed))
	for i, p := range o.Provenance {
		assert.Equal(t, o.Computed[i].Type, p.Type)
		assert.True(t, ids[p.Rule], "rule %q is in the table", p.Rule)
	}
	assert.Nil(t, plain[0].Provenance)
	assert.Nil(t, plain[0].Computed)
	o.Provenance, o.Computed = nil, nil
	assert.Equal(t, plain[0], o)
}

// A write the writer holds back is retried at the instant it waits for.
func TestRun_RetryAtIsTheWait(t *testing.T) {
	f, err := scenario.Load(filepath.Join(bindingCorpus, "writer-changed-within-gap-waits.yaml"))
	require.NoError(t, err)
	outs, err := bindingtest.Run(f, false)
	require.NoError(t, err)
	require.Equal(t, "wait", outs[0].Decision)
	assert.Equal(t, time.Date(2026, 11, 30, 10, 0, 5, 300_000_000, time.UTC), outs[0].RetryAt.UTC())
	f, err = scenario.Load(filepath.Join(bindingCorpus, "ready-all-true.yaml"))
	require.NoError(t, err)
	outs, err = bindingtest.Run(f, false)
	require.NoError(t, err)
	assert.True(t, outs[0].RetryAt.IsZero(), "a write made now is not retried")
}

// A seed draws the same file every time: a snapshot without
// expectations, named after the system and the seed, that the runner
// evaluates.
func TestGenerate_IsReproducible(t *testing.T) {
	pushed := 0
	for seed := range 30 {
		f, err := bindingtest.Generate(seed)
		require.NoError(t, err)
		again, err := bindingtest.Generate(seed)
		require.NoError(t, err)
		assert.Equal(t, f, again, "seed %d", seed)
		assert.Empty(t, f.Expect)
		assert.Equal(t, "binding", f.System)
		assert.Contains(t, f.Name, "seed")
		_, err = bindingtest.Run(f, false)
		require.NoError(t, err, "seed %d", seed)
		drawn, err := bindingtest.Scenario(bindingtest.SnapshotGen().Example(seed))
		require.NoError(t, err)
		if !slices.EqualFunc(drawn.Objects, f.Objects, func(a, b json.RawMessage) bool { return string(a) == string(b) }) {
			pushed++
		}
	}
	assert.Greater(t, pushed, 10, "two seeds in three are pushed, and most pushes change an object")
}

// Each outcome says why no write is made now, the writer's reason
// included: a held write, a standby, the ConfigMap route, a status
// already as computed, a snapshot behind the memory; a write made now
// has none.
func TestRun_SkipSaysWhyNoWrite(t *testing.T) {
	for file, want := range map[string]conditions.Skip{
		"writer-changed-within-gap-waits.yaml":     conditions.SkipHeld,
		"writer-standby-never-writes.yaml":         conditions.SkipNotLeader,
		"configmap-route-writes-nothing.yaml":      conditions.SkipConfigMapRoute,
		"foreign-condition-kept-after-ours.yaml":   conditions.SkipUnchanged,
		"memory-ahead-of-the-object-is-stale.yaml": conditions.SkipStale,
		"ready-all-true.yaml":                      conditions.SkipNone,
	} {
		f, err := scenario.Load(filepath.Join(bindingCorpus, file))
		require.NoError(t, err)
		outs, err := bindingtest.Run(f, false)
		require.NoError(t, err)
		require.Equal(t, "Binding", outs[0].Kind)
		assert.Equal(t, want, outs[0].Skip, file)
		assert.Equal(t, want == conditions.SkipNone, outs[0].Decision == "write", file)
	}
}
