package bindingtest_test

// Fuzzing: FuzzRun checks that a scenario evaluates to the same
// outcomes twice (and in any order of its objects) and that every message
// obeys the message rule. Inputs over 64 KiB are skipped, so that a grown
// mutation cannot slow the target down.
//
//	go test ./binding/bindingtest -run '^$' -fuzz '^FuzzRun$' -fuzztime 30s -fuzzminimizetime 5s
//
// -fuzzminimizetime bounds how long a failing input is shrunk.

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/condengine/condengine/binding/bindingtest"
	"github.com/condengine/condengine/redact"
	"github.com/condengine/condengine/scenario"
)

// FuzzRun feeds scenario files (the corpus as seeds) through the
// runner: a bad file is an error, never a panic.
func FuzzRun(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join(bindingCorpus, "*.yaml"))
	for _, p := range paths {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 64<<10 {
			t.Skip()
		}
		sf, err := scenario.Parse(data)
		if err != nil || sf.System != "binding" {
			return
		}
		outs, err := bindingtest.Run(sf, false)
		if err != nil {
			return
		}
		// The same scenario with its objects in reverse order gives the
		// same outcomes (compared by object, since the runner lists them
		// in input order): evaluation is deterministic and order-free.
		slices.Reverse(sf.Objects)
		again, err := bindingtest.Run(sf, false)
		if err != nil {
			t.Fatalf("refused once objects are reversed: %v", err)
		}
		byName := func(a, b scenario.Outcome) int {
			return strings.Compare(a.Kind+"/"+a.Namespace+"/"+a.Name, b.Kind+"/"+b.Namespace+"/"+b.Name)
		}
		slices.SortStableFunc(outs, byName)
		slices.SortStableFunc(again, byName)
		if d := cmp.Diff(outs, again); d != "" {
			t.Fatalf("outcomes depend on the order of objects:\n%s", d)
		}
		for _, o := range outs {
			for _, c := range o.Conditions {
				if err := redact.Check(c.Message, 0); err != nil {
					t.Fatalf("%s %s/%s %s: %v", o.Kind, o.Namespace, o.Name, c.Type, err)
				}
			}
		}
	})
}
