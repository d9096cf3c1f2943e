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
