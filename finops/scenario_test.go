package finops_test

import (
	"testing"

	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/scenario"
)

// TestScenarios runs the finops corpus: every file under
// conformance/scenarios/finops is a conformance vector.
func TestScenarios(t *testing.T) {
	scenario.Runners{scenario.SystemFinOps: finops.RunScenario}.Test(t, "../conformance/scenarios/finops")
}
