package bindingtest_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/bindingtest"
)

// A generated snapshot written as a scenario and read back evaluates as
// the snapshot itself, less the second of any twins (a file holds one
// object per name): the counterexamples say what was generated.
func TestScenario_RoundTripEvaluatesTheSame(t *testing.T) {
	twins := 0
	for seed := range 150 {
		s := bindingtest.SnapshotGen().Example(seed)
		f, err := bindingtest.Scenario(s)
		require.NoError(t, err)
		back, err := bindingtest.Snapshot(f)
		require.NoError(t, err, "seed %d", seed)
		if first := firstOfEachName(s); len(first.Backends) != len(s.Backends) {
			twins++
			s = first
		}
		want, err := binding.Evaluate(s)
		require.NoError(t, err, "seed %d", seed)
		got, err := binding.Evaluate(back)
		require.NoError(t, err, "seed %d", seed)
		require.Equal(t, len(want.Bindings), len(got.Bindings), "seed %d", seed)
		for i := range want.Bindings {
			w, _ := json.Marshal(want.Bindings[i].Conditions)
			g, _ := json.Marshal(got.Bindings[i].Conditions)
			assert.JSONEq(t, string(w), string(g), "seed %d, %s", seed, want.Bindings[i].Name)
			assert.Equal(t, want.Bindings[i].Write, got.Bindings[i].Write, "seed %d, %s", seed, want.Bindings[i].Name)
		}
	}
	assert.Positive(t, twins, "no seed drew twins, so the rule for them went untested")
}

// firstOfEachName keeps the first AgentBackend of each namespace and name,
// the only kind the generator draws twins of.
func firstOfEachName(s binding.Snapshot) binding.Snapshot {
	seen := map[string]bool{}
	var kept []akv1.AgentBackend
	for _, b := range s.Backends {
		if k := b.Namespace + "/" + b.Name; !seen[k] {
			seen[k] = true
			kept = append(kept, b)
		}
	}
	s.Backends = kept
	return s
}
