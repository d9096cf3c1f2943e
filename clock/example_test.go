package clock_test

import (
	"fmt"
	"time"

	"github.com/condengine/condengine/clock"
)

// The Binding writer's retry schedule: one gap, then doubling, capped.
func ExampleBackoff() {
	b := clock.Backoff{First: 10 * time.Second, Cap: 5 * time.Minute}
	for failures := 0; failures <= 7; failures++ {
		fmt.Println(failures, b.Wait(failures))
	}
	// Output:
	// 0 0s
	// 1 10s
	// 2 20s
	// 3 40s
	// 4 1m20s
	// 5 2m40s
	// 6 5m0s
	// 7 5m0s
}

// A Fake lets a test decide when time passes.
func ExampleFake() {
	f := clock.NewFake(time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC))
	var c clock.Clock = f
	fmt.Println(c.Now().Format(time.RFC3339))
	f.Step(90 * time.Second)
	fmt.Println(c.Now().Format(time.RFC3339))
	// Output:
	// 2026-11-30T10:00:00Z
	// 2026-11-30T10:01:30Z
}
