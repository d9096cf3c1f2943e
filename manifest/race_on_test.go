//go:build race

package manifest

// raceDetector is true in a test binary built with -race, whose
// instrumentation multiplies allocation and time: the tests that measure
// them skip there, and .ci/run runs them in a build without it.
const raceDetector = true
