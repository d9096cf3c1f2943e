package conformance_test

import (
	"path/filepath"
	"testing"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/scenario"
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
	for _, path := range paths {
		f, err := scenario.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		switch f.System {
		case "binding":
			s, err := conformance.BindingSnapshot(f)
			if err != nil {
				continue // scenarios of bad input
			}
			res, err := binding.Explain(s)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			for _, r := range res.Bindings {
				note(path, r.Provenance)
			}
		case "finops":
			s, err := conformance.FinOpsSnapshot(f)
			if err != nil {
				continue
			}
			r, err := finops.Explain(s)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			for _, o := range r.PriceBooks.Books {
				note(path, o.Provenance)
			}
			for _, o := range r.Offerings.Offerings {
				note(path, o.Provenance)
			}
			for _, o := range r.Subscriptions.Subscriptions {
				note(path, o.Provenance)
			}
		}
	}
	unreachable := conformance.Unreachable()
	for _, r := range conformance.Rules() {
		_, ok := seen[r.ID]
		switch why, skip := unreachable[r.ID]; {
		case skip && ok:
			t.Errorf("%s is listed as unreachable (%s) but decides a condition in %s", r.ID, why, seen[r.ID])
		case !skip && !ok:
			t.Errorf("no scenario reaches rule %s: %s", r.ID, r.Sentence)
		}
	}
}
