package finopstest_test

import (
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/finops/finopstest"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
)

// The finops system's value keeps the contract, its kinds agreeing with
// their CRDs in config/crd (names, scope: FinOpsProvider is
// cluster-scoped), its finalizers those of the API.
func TestSystem_IsValid(t *testing.T) {
	s := finopstest.System()
	require.NoError(t, system.Validate(s))
	assert.Equal(t, []string{"PriceBook", "Offering", "Subscription"}, s.StatusKinds())
	assert.Equal(t, "finops-operator", s.FieldManager)
	k, ok := s.Kind("Subscription")
	require.True(t, ok)
	assert.Equal(t, "subscriptions.finops.stakater.com/finalizer", k.Finalizer)
	entries, err := fs.Glob(s.CRDs, "*.yaml")
	require.NoError(t, err)
	assert.Len(t, entries, 5, "the CRDs of the system's five kinds, no other")
}

// With explain, the outcome of each kind with conditions carries the
// computed list and one provenance entry per condition; the rest of the
// outcomes is the same.
func TestRun_ExplainAddsProvenance(t *testing.T) {
	f, err := scenario.Load("../../conformance/scenarios/finops/offering-deleting-allowed.yaml")
	require.NoError(t, err)
	plain, err := finopstest.Run(f, false)
	require.NoError(t, err)
	explained, err := finopstest.Run(f, true)
	require.NoError(t, err)
	require.Len(t, explained, len(plain))
	rules := map[string]bool{}
	for _, r := range append(finopstest.System().Rules, conditions.SharedRules()...) {
		rules[r.ID] = true
	}
	withProvenance := 0
	sys := finopstest.System()
	for i, o := range explained {
		// Every object of a kind with conditions is answered for
		// (Computed not nil, explain lists it); no other is.
		k, _ := sys.Kind(o.Kind)
		assert.Equal(t, k.Vocabulary != nil, o.Computed != nil, "%s %s: Computed %v", o.Kind, o.Name, o.Computed)
		require.Len(t, o.Provenance, len(o.Computed), "%s %s", o.Kind, o.Name)
		for _, p := range o.Provenance {
			assert.True(t, rules[p.Rule], p.Rule)
		}
		if len(o.Provenance) > 0 {
			withProvenance++
		}
		assert.True(t, o.RetryAt.IsZero(), "the reconciler holds no write back")
		o.Provenance, o.Computed = nil, nil
		assert.Equal(t, plain[i], o)
	}
	assert.Positive(t, withProvenance)
}

// A seed draws the same file every time, one the runner evaluates.
func TestGenerate_IsReproducible(t *testing.T) {
	for seed := range 30 {
		f, err := finopstest.Generate(seed)
		require.NoError(t, err)
		again, err := finopstest.Generate(seed)
		require.NoError(t, err)
		assert.Equal(t, f, again, "seed %d", seed)
		assert.Empty(t, f.Expect)
		assert.Equal(t, "finops", f.System)
		_, err = finopstest.Run(f, false)
		require.NoError(t, err, "seed %d", seed)
	}
}

// Each outcome of a kind whose status the system writes says why no
// write is made (the engine's Skip), and says nothing when the write is
// made: over the corpus a status already as computed comes up.
func TestRun_SkipSaysWhyNoWrite(t *testing.T) {
	paths, err := filepath.Glob("../../conformance/scenarios/finops/*.yaml")
	require.NoError(t, err)
	seen := map[conditions.Skip]int{}
	sys := finopstest.System()
	for _, path := range paths {
		f, err := scenario.Load(path)
		require.NoError(t, err)
		outs, err := finopstest.Run(f, false)
		if err != nil {
			continue // a file the engine refuses on purpose
		}
		for _, o := range outs {
			if k, ok := sys.Kind(o.Kind); !ok || !k.Status {
				continue
			}
			assert.Equal(t, o.Write, o.Skip == conditions.SkipNone, "%s: %s %s/%s", path, o.Kind, o.Namespace, o.Name)
			seen[o.Skip]++
		}
	}
	assert.Positive(t, seen[conditions.SkipUnchanged])
	assert.Positive(t, seen[conditions.SkipNone])
}
