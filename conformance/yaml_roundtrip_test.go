package conformance_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/scenario"
)

// The YAML a counterexample is written in parses back to the same
// scenario.
func TestScenarioYAML_ParsesBack(t *testing.T) {
	for _, sys := range conformance.SeedSystems() {
		for seed := range 40 {
			f, err := conformance.Generate(sys, seed)
			require.NoError(t, err)
			want, err := conformance.Reference(sys)(f)
			require.NoError(t, err)
			f.Expect = conformance.Expectations(want)
			y, err := conformance.ScenarioYAML(f)
			require.NoError(t, err)
			back, err := scenario.Parse(y)
			require.NoError(t, err, "%s seed %d:\n%s", sys.Name, seed, y)
			a, _ := json.Marshal(f)
			b, _ := json.Marshal(back)
			require.JSONEq(t, string(a), string(b), "%s seed %d", sys.Name, seed)
		}
	}
}
