// Package exacttest holds two integers a float64 cannot carry and a
// check that a command's output prints them as the object holds them.
// The commands of the module (condengine and kubectl-condengine) read
// objects whose generations and prices may be that large; their tests
// feed these values in and look for the float64's rounding in what comes
// out.
package exacttest
