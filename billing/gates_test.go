package billing

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestMinPeriods_NoneSetAlwaysReached(t *testing.T) {
	s := mustSchedule(t, Fee{PriceMicros: 1, Period: "1", Alignment: MonthBoundary}, "2026-04-01T09:00:00Z")
	assert.True(t, s.MinPeriodsReached(s.ActivatedAt()))
	assert.Zero(t, s.MinPeriods())
}

func TestMinPeriods_BoundaryAtTCounts(t *testing.T) {
	s := mustSchedule(t, Fee{PriceMicros: 1, Period: "1h", Alignment: ActivatedAt, MinPeriods: 2}, "2026-04-01T09:00:00Z")
	assert.False(t, s.MinPeriodsReached(at("2026-04-01T10:59:59Z")))
	assert.True(t, s.MinPeriodsReached(at("2026-04-01T11:00:00Z")))
}

func TestMinPeriods_MeasuredFromActivationNotDeletion_SnapIgnored(t *testing.T) {
	s := mustSchedule(t, Fee{PriceMicros: 1, Period: "1h", Alignment: ActivatedAt, MinPeriods: 3}, "2026-04-01T09:00:00Z")
	d := mustDeactivated(t, s, "2026-04-01T09:30:00Z")
	assert.False(t, d.MinPeriodsReached(at("2026-04-01T11:00:00Z")), "two boundaries so far")
	assert.True(t, d.MinPeriodsReached(at("2026-04-01T12:00:00Z")), "the grid keeps counting after the snap")
	assert.Equal(t, int64(1), mustFee(t, d, "2026-04-01T00:00:00Z", "2026-04-02T00:00:00Z"), "but no shortfall is charged")
}

func TestMinPeriods_BoundaryAlignmentCountsProratedTick(t *testing.T) {
	s := mustSchedule(t, Fee{PriceMicros: 1, Period: "1", Alignment: DayBoundary, MinPeriods: 1}, "2026-04-01T23:00:00Z")
	assert.False(t, s.MinPeriodsReached(at("2026-04-01T23:59:59Z")))
	assert.True(t, s.MinPeriodsReached(at("2026-04-02T00:00:00Z")), "the short opening tick is a period")
}

func TestChargesSettled_FeeOnlyNextRunAfterDeactivationHour(t *testing.T) {
	d := at("2026-04-01T13:42:07Z")
	assert.False(t, ChargesSettled(d, at("2026-04-01T13:00:00Z")), "deactivation hour is the in-progress hour")
	assert.False(t, ChargesSettled(d, at("2026-04-01T12:00:00Z")))
	assert.True(t, ChargesSettled(d, at("2026-04-01T14:00:00Z")))
	assert.True(t, ChargesSettled(d, at("2026-04-01T14:59:00Z")), "scheduled hour truncated")
	assert.True(t, ChargesSettled(d, at("2026-04-03T00:00:00Z")))
}

func TestChargesSettled_DeactivatedOnTheHour(t *testing.T) {
	d := at("2026-04-01T14:00:00Z")
	assert.False(t, ChargesSettled(d, at("2026-04-01T14:00:00Z")), "14:00 belongs to the 14:00-15:00 hour")
	assert.True(t, ChargesSettled(d, at("2026-04-01T15:00:00Z")))
}

// The stricter form suggested in Decision 11 waits for the row holding the
// snapped final boundary.
func TestChargesSettled_SnappedFinalBoundaryForm(t *testing.T) {
	s := mustSchedule(t, Fee{PriceMicros: 1, Period: "24h", Alignment: ActivatedAt}, "2026-04-01T09:15:00Z")
	d := at("2026-04-04T12:00:00Z")
	final := s.Snap(d).Add(-time.Nanosecond)
	assert.True(t, ChargesSettled(d, at("2026-04-04T13:00:00Z")), "documented gate")
	assert.False(t, ChargesSettled(final, at("2026-04-05T09:00:00Z")), "row 09:00-10:00 of day 4 not yet final")
	assert.True(t, ChargesSettled(final, at("2026-04-05T10:00:00Z")))

	h := mustSchedule(t, Fee{PriceMicros: 1, Period: "1", Alignment: HourBoundary}, "2026-04-01T06:30:00Z")
	dh := at("2026-04-01T09:40:00Z")
	assert.Equal(t, ChargesSettled(dh, at("2026-04-01T10:00:00Z")), ChargesSettled(h.Snap(dh).Add(-time.Nanosecond), at("2026-04-01T10:00:00Z")),
		"for an hourly grid both forms agree")
}
