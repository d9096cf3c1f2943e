// Package billing is the FinOps Subscription's money arithmetic: tick
// grids, the subscription fee over any window, opening-tick proration, the
// deactivation snap, the three status.costs buckets and the arithmetic of
// the finalizer's release gates. It reads no clock and keeps no state; every
// instant is an argument, every amount an int64 of currency micro-units.
//
// # Using it
//
// Build one Schedule per Subscription from its Offering's fee block and its
// status.activatedAt, and add status.deactivatedAt when it is set:
//
//	s, err := billing.NewSchedule(billing.Fee{PriceMicros: 40000000, Period: "1h", Alignment: billing.ActivatedAt}, activatedAt)
//	if deactivatedAt != nil {
//		s, err = s.Deactivated(*deactivatedAt)
//	}
//	buckets, err := s.Buckets(scheduledHour, nil)      // status.costs, fee-only
//	release := s.MinPeriodsReached(scheduledHour) &&
//		billing.ChargesSettled(*deactivatedAt, scheduledHour)
//
// # The model
//
// A grid is a sequence of boundary instants after activatedAt. Ticks(t)
// counts the boundaries in (activatedAt, t], so a boundary landing exactly on
// t is counted, and Fee(start, end) charges the boundaries in (start, end]:
// PriceMicros each. A half-open reporting window [start, endExclusive)
// therefore carries the boundary at its end, not the one at its start, which
// is why an hour bucket's fee current is always zero and why a boundary at
// midnight is charged in the row of the hour before it. Because the charge
// is a difference of one cumulative function, windows add up exactly and a
// boundary is charged once however the time line is cut.
//
// Boundary alignments (HourBoundary, DayBoundary, MonthBoundary) charge a
// prorated amount at the first boundary instead of PriceMicros:
// PriceMicros × s / D rounded down, where s is the whole seconds from
// activation to that boundary and D is the full period (period hours,
// period × 24 hours, or period × 2,629,800 seconds for months). That opening
// charge lands in whichever window holds the first boundary. ActivatedAt
// grids are never prorated. The opening charge is not capped: under
// MonthBoundary the first period is a calendar one while D is the
// 30.4375-day month, so an opening can cost more than one price
// (activated 10-01T06:00Z at 300000000 micros: 2656800 / 2629800 of it,
// 303080082).
//
// # Hazard: the settlement gate can release before the final tick is charged
//
// ChargesSettled is the operator's documented gate: it waits only for the
// charge collection of the hour that holds deactivatedAt. The final tick
// is charged at the snapped boundary, which for any period longer than an
// hour can fall in a later hour row. A host that releases the finalizer on
// ChargesSettled alone can therefore delete a Subscription whose last
// charge row was never written. The engine keeps the documented gate
// (the model follows the operator); a host that wants the final row
// written first tests ChargesSettled(s.Snap(deactivatedAt).Add(-time.Nanosecond), hour)
// instead. `condengine vocab` prints this warning too (HazardSettlementGate).
//
// The deactivation snap moves deactivatedAt, read at whole seconds as
// activatedAt is, forward to the next boundary (not at all when it sits
// on one: 00:00:00.5 on a boundary is on it). Charging stops there: the final tick is
// always charged whole, and every window end is clamped to the snapped
// instant. The snapped instant is computed, never reported back as a status
// time.
//
// Month grids use calendar months in UTC; the 2,629,800-second month is only
// the proration denominator. All instants are converted to UTC; UTC has no
// daylight saving, so every day is 86,400 seconds and every hour 3,600.
//
// # Decisions
//
// Where the operator's documentation is silent or contradicts itself, this
// package decides as follows.
//
//  1. Ticks counts (activatedAt, t]: a boundary at t counts (the billing
//     model page; the API comment saying "strictly before" is superseded).
//     For t at or before activatedAt Ticks is 0, and Fee over such a window
//     is 0; it is not an error.
//  2. HourBoundary grids are counted from the Unix epoch, 00:00 UTC on
//     1970-01-01, so a period that does not divide 24 (say 5) keeps a
//     regular five-hour rhythm across midnight instead of restarting daily.
//  3. The opening tick is the operator's formula exactly, floored, with no
//     cap: a month grid activated at the very start of a 31-day month is
//     charged 31/30.4375 of the price for its first tick. activatedAt is
//     read at whole seconds, as the API server stores it: a fraction is
//     dropped before anything is counted, on every alignment. An opening
//     too large for int64 is ErrOverflow when it is charged.
//  4. When the opening tick is also the final tick (deactivated before the
//     first boundary), it stays prorated: "whole" means the deactivation does
//     not shorten a tick, not that the activation proration is undone.
//  5. A deactivatedAt at or before activatedAt (bad input) snaps to the
//     first boundary: the one tick in progress at activation is charged.
//  6. Periods: ActivatedAt takes digits and one of h, m, s (the CRD form).
//     Boundary alignments take plain digits; HourBoundary also takes "<n>h",
//     the one unit-suffixed form the documentation defines unambiguously.
//     Suffixes for days and months were never documented, so "1d", "1mo"
//     and the like are rejected with an error naming the accepted form.
//     Zero, signs, spaces and periods over about 10,000 years are rejected.
//  7. PriceMicros 0 is accepted and charges nothing (the CRD minimum of 1 is
//     admission's business); a negative price or minPeriods is an error.
//  8. Instants must lie in years 0001-9999 UTC (Kubernetes timestamps).
//     Fee, Buckets, NewSchedule and Deactivated return ErrTimeRange outside;
//     Ticks, NextBoundary and Snap, which return no error, treat an instant
//     beyond the range as the range's edge.
//  9. An amount that does not fit in int64 is ErrOverflow, never wrapped:
//     with a period of one second over a century, a price above about 2,900
//     currency units per tick overflows.
//  10. MinPeriodsReached counts the raw grid on the wall clock, ignoring the
//     snap; no shortfall is ever charged.
//  11. ChargesSettled follows the documented gate literally: the hour
//     containing deactivatedAt must be finalized, even where the snapped
//     final tick lands later. See the
//     Hazard section above for what that risks and the stricter test.
//  12. Usage reaches the buckets only through the host's UsageFunc. Meter
//     amounts are summed per name; zero sums are omitted; a negative amount,
//     an empty name or the name "subscription" is ErrInvalidUsage. The
//     breakdown lists the subscription fee first, then meters by name.
package billing
