package finopstest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/finops/finopstest"
	"github.com/condengine/condengine/scenario"
)

// The finops runner reports each object's finalizer action as the engine
// decided it: an Offering allowed to go drops its finalizer, the one
// beside it keeps its own.
func TestRun_CarriesTheFinalizerAction(t *testing.T) {
	f, err := scenario.Load("../../conformance/scenarios/finops/offering-deleting-allowed.yaml")
	require.NoError(t, err)
	outs, err := finopstest.Run(f, false)
	require.NoError(t, err)
	got := map[string]conditions.FinalizerAction{}
	for _, o := range outs {
		if o.Kind == "Offering" {
			got[o.Namespace+"/"+o.Name] = o.Finalizer
		}
	}
	assert.Equal(t, conditions.FinalizerRemove, got["shop/base"])
	assert.NotEqual(t, conditions.FinalizerRemove, got["shop/unrelated"])
}
