package harness_test

import (
	"os"
	"testing"

	"github.com/condengine/condengine/e2e/internal/harness"
)

// A test package gets its own control plane from TestMain; each test asks
// for it and skips, with the reason, when e2e/run.sh did not provide one.
// (No output: running it needs a testing.M.)
func ExampleMain() {
	var m *testing.M // the *testing.M passed to TestMain
	if m != nil {
		os.Exit(harness.Main(m))
	}
}
