package finopstest_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/finops/finopstest"
)

// A generated snapshot written as a scenario and read back evaluates as
// the snapshot itself.
func TestScenario_RoundTripEvaluatesTheSame(t *testing.T) {
	for seed := range 150 {
		s := finopstest.SnapshotGen().Example(seed)
		f, err := finopstest.Scenario(s)
		require.NoError(t, err)
		back, err := finopstest.Snapshot(f)
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
