package binding_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/scenario"
)

const scenarioDir = "../conformance/scenarios/binding"

// TestScenarios runs every scenario of the corpus that the engine alone
// decides. Files named writer-*.yaml also need the status writer of
// package binding/runtime, whose tests run them.
func TestScenarios(t *testing.T) {
	entries, err := os.ReadDir(scenarioDir)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || strings.HasPrefix(n, "writer-") || !(strings.HasSuffix(n, ".yaml") || strings.HasSuffix(n, ".yml")) {
			continue
		}
		paths = append(paths, filepath.Join(scenarioDir, n))
	}
	if len(paths) < 40 {
		t.Errorf("the corpus has %d engine scenarios, want at least 40", len(paths))
	}
	scenario.Runners{scenario.SystemBinding: binding.RunScenario}.Test(t, paths...)
}
