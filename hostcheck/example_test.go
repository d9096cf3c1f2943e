package hostcheck_test

import (
	"context"
	"fmt"

	"github.com/condengine/condengine/hostcheck"
)

// A host's test runs the harness over its reconciler; this one makes a
// write without the resourceVersion guard, and the harness shows it.
func Example() {
	cx, err := hostcheck.Find(context.Background(), newHost(noGuard), hostcheck.Options{System: hostcheck.Binding(), Schedules: 3})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(cx.Violation.Rule.ID)
	// Output: FreshView
}

// The host of a kind of your own, checked through the kind's
// system.System value: here the test's Gadget system, whose correct host
// passes a short run.
func ExampleFromSystem() {
	sys := hostcheck.FromSystem(gadgets(), gadgetScheme())
	cx, err := hostcheck.Find(context.Background(), newGadgetHost(gadgetCorrect), hostcheck.Options{System: sys, Schedules: 5})
	fmt.Println(cx == nil, err)
	// Output: true <nil>
}
