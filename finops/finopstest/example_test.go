package finopstest_test

import (
	"fmt"

	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/finops/finopstest"
)

// A drawn snapshot evaluates like any other; the same seed draws the
// same snapshot.
func ExampleSnapshotGen() {
	a := finopstest.SnapshotGen().Example(3)
	b := finopstest.SnapshotGen().Example(3)
	r, err := finops.Evaluate(a)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(a.Subscriptions) == len(b.Subscriptions), len(r.Subscriptions.Subscriptions) == len(a.Subscriptions))
	// Output: true true
}

// CostJobs and FinOpsProviders get no status from an evaluation: one
// schedule per CostJob, one plan per provider.
func ExampleCostJobs() {
	s := finopstest.SnapshotGen().Example(1)
	s.CostJobs = finopstest.CostJobs(3).Example(2)
	s.Providers = finopstest.Providers(2).Example(2)
	r, err := finops.Evaluate(s)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(r.CostJobs) == len(s.CostJobs), len(r.Providers) == len(s.Providers))
	// Output: true true
}
