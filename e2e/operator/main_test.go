package operator_test

import (
	"os"
	"testing"

	"github.com/go-logr/logr"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/condengine/condengine/e2e/internal/harness"
)

func TestMain(m *testing.M) {
	// The hosts log through controller-runtime; the tests read what they
	// wrote, not what they said.
	ctrllog.SetLogger(logr.Discard())
	os.Exit(harness.Main(m))
}
