package conformance_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/bindingtest"
	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/finops/finopstest"
	"github.com/condengine/condengine/scenario"
)

// A generated snapshot written as a scenario and read back evaluates as
// the snapshot itself, less the second of any twins (a file holds one
// object per name): the counterexamples say what was generated.
func TestBindingScenario_RoundTripEvaluatesTheSame(t *testing.T) {
	twins := 0
	for seed := range 150 {
		s := bindingtest.SnapshotGen().Example(seed)
		f, err := conformance.BindingScenario(s)
		require.NoError(t, err)
		back, err := conformance.BindingSnapshot(f)
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

func TestFinOpsScenario_RoundTripEvaluatesTheSame(t *testing.T) {
	for seed := range 150 {
		s := finopstest.SnapshotGen().Example(seed)
		f, err := conformance.FinOpsScenario(s)
		require.NoError(t, err)
		back, err := conformance.FinOpsSnapshot(f)
		require.NoError(t, err, "seed %d", seed)
		wr, err := finops.Evaluate(s)
		require.NoError(t, err, "seed %d", seed)
		gr, err := finops.Evaluate(back)
		require.NoError(t, err, "seed %d", seed)
		want, err := json.Marshal(wr)
		require.NoError(t, err)
		got, err := json.Marshal(gr)
		require.NoError(t, err)
		require.JSONEq(t, string(want), string(got), "seed %d", seed)
	}
}

// The YAML a counterexample is written in parses back to the same
// scenario.
func TestScenarioYAML_ParsesBack(t *testing.T) {
	for _, sys := range []string{"binding", "finops"} {
		for seed := range 40 {
			f, err := conformance.Generate(sys, seed)
			require.NoError(t, err)
			want, err := conformance.Reference(f)
			require.NoError(t, err)
			f.Expect = conformance.Expectations(want)
			y, err := conformance.ScenarioYAML(f)
			require.NoError(t, err)
			back, err := scenario.Parse(y)
			require.NoError(t, err, "%s seed %d:\n%s", sys, seed, y)
			a, _ := json.Marshal(f)
			b, _ := json.Marshal(back)
			require.JSONEq(t, string(a), string(b), "%s seed %d", sys, seed)
		}
	}
}
