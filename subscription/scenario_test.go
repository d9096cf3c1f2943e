package subscription_test

import (
	"path/filepath"
	"testing"

	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/subscription/subscriptiontest"
)

// scenarioDir holds the corpus; this package runs the files it owns
// (subscription-, costs-, costjob- and provider-) with its own runner, so
// they are checked even before the finops system runner wires them in.
const scenarioDir = "../conformance/scenarios/finops"

func TestScenarios(t *testing.T) {
	var files []string
	for _, pat := range []string{"subscription-*.yaml", "costs-*.yaml", "costjob-*.yaml", "provider-*.yaml"} {
		m, err := filepath.Glob(filepath.Join(scenarioDir, pat))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 40 {
		t.Errorf("only %d scenario files; the corpus promises at least 40", len(files))
	}
	conformance.Test(t, scenario.Runners{"finops": subscriptiontest.Run}, files...)
}
