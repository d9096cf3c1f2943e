//go:build !unix

package subscription_test

import "time"

// cpuTime is not measured here; the benchmarks then report zero.
func cpuTime() time.Duration { return 0 }
