package billing

import "time"

// MinPeriodsReached reports whether the minPeriods cleanup guard lets the
// finalizer go at t (pass the run's scheduled hour): true when the fee sets
// no minimum, or when at least MinPeriods boundaries of the raw grid lie in
// (activatedAt, t]. The count runs from activation on the wall clock and
// ignores the deactivation snap: the guard only delays cleanup, and the
// ticks it waits for after the snap are never charged.
func (s Schedule) MinPeriodsReached(t time.Time) bool {
	return s.minPeriods == 0 || s.Ticks(t) >= s.minPeriods
}

// MinPeriods returns the fee's minPeriods (zero when unset).
func (s Schedule) MinPeriods() int64 { return s.minPeriods }

// HazardSettlementGate warns of the documented settlement gate's blind
// spot. The gate is kept as documented; this text is
// shown wherever the gate is described: the package doc and the
// Subscription's Deleting condition in `condengine vocab`.
const HazardSettlementGate = "Hazard: the finalizer is released once the hour holding deactivatedAt is settled, " +
	"as the operator documents it; with a period longer than an hour the final tick is charged at the snapped boundary, " +
	"which can lie in a later hour, so the Subscription can be deleted before its last charge row is written."

// ChargesSettled reports whether the hour containing deactivatedAt is
// covered by a run's finalized pass, which writes final rows for every hour
// strictly before finalizedThrough (truncated to the hour). For a fee-only
// Subscription pass the run's scheduled hour; for a usage-billing one, the
// cluster allocation boundary. The deactivation hour is settled once
// finalizedThrough is at or after the end of that hour, i.e. from the first
// run scheduled after it.
func ChargesSettled(deactivatedAt, finalizedThrough time.Time) bool {
	deactivationHour := deactivatedAt.UTC().Truncate(time.Hour)
	return !finalizedThrough.UTC().Truncate(time.Hour).Before(deactivationHour.Add(time.Hour))
}
