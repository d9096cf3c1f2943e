// Package clock gives hosts and simulations a source of time and a retry
// schedule, so that engine code never has to read the wall clock itself.
//
// The engine packages take "now" as a plain time.Time argument. Hosts obtain
// that value from a [Clock]: [Real] in production, [Fake] in tests and
// simulations, where time only moves when the test says so.
//
// [Backoff] turns a count of consecutive failures into the wait before the
// next attempt. It is a pure function of its fields and the count, so a
// schedule can be tested, printed and compared without sleeping.
//
// # Decisions
//
//   - Backoff.Wait(n) for n <= 0 is 0: with no failure there is nothing to
//     wait for. Wait(1) is First, each further failure multiplies by Factor,
//     and the result never exceeds Cap.
//   - A zero Factor means 2 (doubling, the usual operator schedule). A
//     Factor of 1 gives a constant wait of First. Negative Factor, negative
//     First or Cap, and a Cap smaller than First are configuration errors that
//     [Backoff.Validate] reports; Wait still answers for them without
//     panicking: negative durations are treated as 0 and a negative Factor as
//     2, and the result is clamped to Cap.
//   - A zero Cap means "no cap other than the largest time.Duration": the
//     wait saturates at math.MaxInt64 nanoseconds instead of overflowing.
//   - Fake starts at the time given to NewFake; its zero value starts at the
//     zero time.Time. Step with a negative duration moves time backwards,
//     because simulations sometimes need that; Real never does.
package clock
