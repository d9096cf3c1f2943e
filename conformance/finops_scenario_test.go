package conformance_test

import (
	"testing"

	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/scenario"
)

// TestRunFinOps_Corpus runs the finops corpus: every file under
// conformance/scenarios/finops is a conformance vector of RunFinOps
// alone.
func TestRunFinOps_Corpus(t *testing.T) {
	scenario.Runners{scenario.SystemFinOps: conformance.RunFinOps}.Test(t, "scenarios/finops")
}
