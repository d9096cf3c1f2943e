package conformance_test

import (
	"maps"
	"path/filepath"
	"testing"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
)

// The scenario corpus explained: every rule of the table decides some
// condition of some scenario, so each rule is exercised by name.
func TestRules_EveryRuleDecidesSomeScenario(t *testing.T) {
	paths, err := filepath.Glob("scenarios/*/*.yaml")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	seen := map[string]string{}
	note := func(path string, provs []conditions.Provenance) {
		for _, p := range provs {
			if _, ok := seen[p.Rule]; !ok {
				seen[p.Rule] = filepath.Base(path)
			}
		}
	}
	systems := map[string]*system.System{}
	unreachable := map[string]string{}
	for _, sys := range conformance.SeedSystems() {
		systems[sys.Name] = sys
		maps.Copy(unreachable, sys.Unreachable)
	}
	for _, path := range paths {
		f, err := scenario.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		sys := systems[f.System]
		if sys == nil {
			t.Fatalf("%s: no seed system %q", path, f.System)
		}
		outs, err := sys.Run(f, true)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, o := range outs {
			note(path, o.Provenance)
		}
	}
	for _, r := range conformance.Rules(conformance.SeedSystems()...) {
		_, ok := seen[r.ID]
		switch why, skip := unreachable[r.ID]; {
		case skip && ok:
			t.Errorf("%s is listed as unreachable (%s) but decides a condition in %s", r.ID, why, seen[r.ID])
		case !skip && !ok:
			t.Errorf("no scenario reaches rule %s: %s", r.ID, r.Sentence)
		}
	}
}
