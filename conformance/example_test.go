package conformance_test

import (
	"fmt"

	"github.com/condengine/condengine/conformance"
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
	for _, v := range conformance.Vocabularies() {
		fmt.Println(v.Kind(), len(v.Types()))
	}
	// Output:
	// Binding 4
	// PriceBook 2
	// Offering 3
	// Subscription 4
}
