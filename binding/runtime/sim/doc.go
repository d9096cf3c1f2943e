// Package sim is the old path of package binding/policy/sim, kept so
// code written against it still builds while it moves. Every name here
// is an alias of the same name there.
//
// Deprecated: import github.com/condengine/condengine/binding/policy/sim.
package sim
