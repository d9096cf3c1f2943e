package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Check is the differential conformance test of another implementation:
// it compares eval with the engine on opts.Runs snapshots of system drawn
// by the project's generators (every reason reachable, channel conflicts,
// Subscription families, the broker's memory, probe results, other
// controllers' conditions, objects made again under a new uid) and, on
// the first disagreement, fails t with the differences and the shrunk
// snapshot, written as a scenario file whose expect block holds the
// engine's answer. A host calls it from its own test:
//
//	func TestConformsToEngine(t *testing.T) {
//		conformance.Check(t, "binding", myEvaluator, conformance.Options{Runs: 500})
//	}
func Check(t testing.TB, system string, eval Evaluator, opts Options) {
	t.Helper()
	c, err := Differential(system, eval, opts)
	if err != nil {
		t.Fatalf("conformance: %v", err)
	}
	if c == nil {
		return
	}
	out := opts.Out
	if out == "" {
		out = filepath.Join(os.TempDir(), fmt.Sprintf("condengine-counterexample-%s-seed%d.yaml", system, c.Seed))
	}
	where := "written to " + out
	if err := c.WriteFile(out); err != nil {
		where = "not written: " + err.Error()
	}
	t.Fatalf("conformance: %s disagrees with the engine\n%s\n(scenario %s; run `condengine check %s` to see the engine pass it)",
		system, c.Report(), where, out)
}
