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
