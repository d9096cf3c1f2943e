//go:build !race

package manifest

// raceDetector is true in a test binary built with -race (see
// race_on_test.go).
const raceDetector = false
