package runtime_test

import (
	"fmt"

	"github.com/condengine/condengine/binding/policy"
	"github.com/condengine/condengine/binding/runtime"
)

// The old names are the new ones: a value of one is a value of the other.
func Example() {
	var l policy.Limits = runtime.DefaultLimits()
	fmt.Println(l == policy.DefaultLimits(), runtime.ReasonGap == policy.LogGap)
	// Output: true true
}
