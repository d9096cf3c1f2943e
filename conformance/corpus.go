package conformance

import (
	"embed"
	"io/fs"

	"github.com/condengine/condengine/scenario"
)

//go:embed scenarios
var embedded embed.FS

// Corpus returns the project's scenario files, embedded in the module:
// binding/*.yaml and finops/*.yaml, the vectors docs/scenarios.md
// describes. A host runs them through its own runners, or through the
// engine's:
//
//	func TestCorpus(t *testing.T) {
//		conformance.TestFS(t, conformance.Runners(), conformance.Corpus())
//	}
//
// It is a function rather than a variable so that no caller can swap the
// corpus under another.
func Corpus() fs.FS {
	sub, err := fs.Sub(embedded, "scenarios")
	if err != nil {
		// fs.Sub fails only on an invalid directory name; "scenarios" is
		// a constant.
		panic(err)
	}
	return sub
}

// The scenario types a host needs, so that a test running the corpus
// through its own evaluator imports this package alone.
type (
	// File is one scenario; see scenario.File.
	File = scenario.File
	// Outcome is what a runner computed for one object; see
	// scenario.Outcome.
	Outcome = scenario.Outcome
	// Runner evaluates the scenarios of one system; see scenario.Runner.
	Runner = scenario.Runner
	// Result is the verdict on one scenario file; see scenario.Result.
	Result = scenario.Result
)
