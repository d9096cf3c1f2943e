package conformance_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/scenario"
)

// FuzzRunBinding feeds scenario files (the corpus as seeds) through the
// runner: a bad file is an error, never a panic.
func FuzzRunBinding(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join(bindingCorpus, "*.yaml"))
	for _, p := range paths {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sf, err := scenario.Parse(data)
		if err != nil || sf.System != scenario.SystemBinding {
			return
		}
		_, _ = conformance.RunBinding(sf)
	})
}
