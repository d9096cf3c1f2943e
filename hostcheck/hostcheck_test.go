package hostcheck_test

import (
	"context"
	"testing"

	"github.com/condengine/condengine/hostcheck"
)

func TestCorrectHostPasses(t *testing.T) {
	hostcheck.Check(t, newHost(correct), hostcheck.Options{System: hostcheck.Binding})
}

// TestPlantedBugs runs each planted host bug under the default budget
// and every fault kind: each must be caught, with a shrunk schedule.
func TestPlantedBugs(t *testing.T) {
	for b := staleRead; b <= retryDropped; b++ {
		t.Run(bugNames[b], func(t *testing.T) {
			cx, err := hostcheck.Find(context.Background(), newHost(b), hostcheck.Options{System: hostcheck.Binding})
			if err != nil {
				t.Fatal(err)
			}
			if cx == nil {
				t.Fatalf("%s: not caught", bugNames[b])
			}
			t.Logf("%s: caught by %s, shrunk schedule of %d events (drawn %d)\n%s", bugNames[b], cx.Violation.Rule.ID, cx.Steps, cx.Drawn, cx)
		})
	}
}
