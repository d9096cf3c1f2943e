package perf_test

import (
	"os"
	"testing"

	"github.com/condengine/condengine/e2e/internal/harness"
)

func TestMain(m *testing.M) {
	if os.Getenv(EnvPerf) == "" {
		// No control plane to start: every test here skips.
		os.Exit(m.Run())
	}
	os.Exit(harness.Main(m))
}
