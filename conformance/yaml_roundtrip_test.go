package conformance_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
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

// Every corpus file asked over the protocol (written as a request line and
// read back as the other side reads it) gets the answer the engine gives
// the file itself, decision keys included: a request carries every
// instant of the file exactly, fractions of a second too.
func TestRequest_AsksWhatTheFileAsks(t *testing.T) {
	paths, err := scenario.PathsFS(conformance.Corpus())
	require.NoError(t, err)
	for _, path := range paths {
		f, err := scenario.LoadFS(conformance.Corpus(), path)
		require.NoError(t, err, path)
		sys, err := system.Find(f.System, conformance.SeedSystems()...)
		require.NoError(t, err, path)
		f.Expect = nil
		want, err := conformance.Reference(sys)(f)
		if err != nil {
			continue // a file the engine refuses on purpose
		}
		line, err := conformance.EncodeRequest(1, f)
		require.NoError(t, err, path)
		_, back, err := conformance.DecodeRequest(line, f.System)
		require.NoError(t, err, path)
		got, err := conformance.Reference(sys)(back)
		require.NoError(t, err, path)
		diffs := conformance.CompareWith(want, got, conformance.CompareOptions{Keys: conformance.DecisionKeys()})
		require.Empty(t, diffs, "%s: %s", path, conformance.FormatDifferences(diffs))
	}
}
