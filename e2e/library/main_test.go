package library_test

import (
	"os"
	"testing"

	"github.com/condengine/condengine/e2e/internal/harness"
)

func TestMain(m *testing.M) { os.Exit(harness.Main(m)) }
