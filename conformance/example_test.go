package conformance_test

import (
	"fmt"

	"github.com/condengine/condengine/binding/bindingtest"
	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/scenario"
)

// A host operator runs a scenario file (here the project's own, with a
// deliberately wrong expectation) and reads the verdict.
func ExampleRunners() {
	results, err := conformance.Runners().RunPaths("../testdata/cli/check")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range results {
		fmt.Println(r.Path, r.Passed())
	}
	// Output:
	// ../testdata/cli/check/connection-not-found.yaml true
	// ../testdata/cli/check/deliberately-failing.yaml false
}

func ExampleVocabularies() {
	for _, v := range conformance.Vocabularies(conformance.SeedSystems()...) {
		fmt.Println(v.Kind(), len(v.Types()))
	}
	// Output:
	// Binding 4
	// PriceBook 2
	// Offering 3
	// Subscription 4
}

// An implementation with one reason renamed is caught; the counterexample
// is shrunk to a handful of objects and names the field that differs.
func ExampleDifferential() {
	sys := bindingtest.System()
	wrong := func(f *scenario.File) ([]conformance.Object, error) {
		objs, err := conformance.Reference(sys)(f)
		for i := range objs {
			for j := range objs[i].Conditions {
				if objs[i].Conditions[j].Reason == "ChannelConflict" {
					objs[i].Conditions[j].Reason = "ChannelTaken"
				}
			}
		}
		return objs, err
	}
	c, err := conformance.Differential(sys, wrong, conformance.Options{Runs: 100})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Differences[0].Field, c.Differences[0].Want, c.Differences[0].Got)
	fmt.Println(len(c.File.Objects) <= 5)
	// Output:
	// conditions[Accepted].reason "ChannelConflict" "ChannelTaken"
	// true
}
