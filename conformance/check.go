package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/condengine/condengine/system"
)

// Check is the differential conformance test of another implementation:
// it compares eval with the engine on opts.Runs snapshots of sys drawn by
// its generator (for the seed systems, the project's: every reason
// reachable, channel conflicts, Subscription families, the broker's
// memory, probe results, other controllers' conditions, objects made
// again under a new uid) and, on the first disagreement, fails t with the
// differences and the shrunk snapshot, written as a scenario file whose
// expect block holds the engine's answer. A host calls it from its own
// test:
//
//	func TestConformsToEngine(t *testing.T) {
//		conformance.Check(t, bindingtest.System(), myEvaluator, conformance.Options{Runs: 500})
//	}
func Check(t testing.TB, sys *system.System, eval Evaluator, opts Options) {
	t.Helper()
	c, err := Differential(sys, eval, opts)
	if err != nil {
		t.Fatalf("conformance: %v", err)
	}
	if c == nil {
		return
	}
	out := opts.Out
	if out == "" {
		out = filepath.Join(os.TempDir(), fmt.Sprintf("condengine-counterexample-%s-seed%d.yaml", sys.Name, c.Seed))
	}
	where := "written to " + out
	if err := c.WriteFile(out); err != nil {
		where = "not written: " + err.Error()
	}
	t.Fatalf("conformance: %s disagrees with the engine\n%s\n(scenario %s; run `condengine check %s` to see the engine pass it)",
		sys.Name, c.Report(), where, out)
}
