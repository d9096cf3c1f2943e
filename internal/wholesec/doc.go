// Package wholesec reads the instants an object carries at whole
// seconds, as an API server stores them: a metav1.Time is written in
// RFC 3339 without a fraction, so an object read from a cluster never
// holds one. A fraction can only come from a hand-written manifest or a
// snapshot built in Go, and every evaluator drops it where it takes its
// snapshot in, before any rule reads the instant, so that a rule sees
// what the API server would show.
//
// Each function costs a check per instant and allocates nothing when
// every instant is already whole, which is every object a cluster
// returns; only a list that holds a fraction is copied, never changed in
// place.
package wholesec
