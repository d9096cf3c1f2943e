package billing

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
)

// The worked examples of the operator's billing model and cost-reading
// guide, one test each, with the documented figures.

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t
}

func mustSchedule(t testing.TB, f Fee, activatedAt string) Schedule {
	t.Helper()
	s, err := NewSchedule(f, at(activatedAt))
	require.NoError(t, err)
	return s
}

func mustDeactivated(t testing.TB, s Schedule, deactivatedAt string) Schedule {
	t.Helper()
	d, err := s.Deactivated(at(deactivatedAt))
	require.NoError(t, err)
	return d
}

func mustFee(t testing.TB, s Schedule, start, end string) int64 {
	t.Helper()
	v, err := s.Fee(at(start), at(end))
	require.NoError(t, err)
	return v
}

func TestWorkedExample_ActivatedAtHourly_BucketsAtThirteen(t *testing.T) {
	s := mustSchedule(t, Fee{PriceMicros: 40000000, Period: "1h", Alignment: ActivatedAt}, "2026-04-01T09:00:00Z")
	got, err := s.Buckets(at("2026-04-01T13:00:00Z"), nil)
	require.NoError(t, err)

	want := [3]struct {
		g                  finopsv1.Granularity
		start, end         string
		current, projected int64
	}{
		{finopsv1.GranularityHour, "2026-04-01T13:00:00Z", "2026-04-01T14:00:00Z", 0, 40000000},
		{finopsv1.GranularityDay, "2026-04-01T00:00:00Z", "2026-04-02T00:00:00Z", 160000000, 600000000},
		{finopsv1.GranularityMonth, "2026-04-01T00:00:00Z", "2026-05-01T00:00:00Z", 160000000, 28440000000},
	}
	for i, w := range want {
		b := got[i]
		assert.Equal(t, w.g, b.Granularity)
		assert.True(t, at(w.start).Equal(b.Start.Time), "%s start %s", w.g, b.Start)
		assert.True(t, at(w.end).Equal(b.EndExclusive.Time), "%s end %s", w.g, b.EndExclusive)
		assert.Equal(t, w.current, b.Current, "%s current", w.g)
		assert.Equal(t, w.projected, b.Projected, "%s projected", w.g)
		assert.Equal(t, []finopsv1.CostMetric{{Name: SubscriptionMeter, Current: w.current, Projected: w.projected}}, b.Breakdown, "%s breakdown", w.g)
	}
	// The documented tick counts behind the figures.
	assert.Equal(t, int64(15), s.Ticks(at("2026-04-02T00:00:00Z"))-s.Ticks(at("2026-04-01T00:00:00Z")))
	assert.Equal(t, int64(711), s.Ticks(at("2026-05-01T00:00:00Z")))
	assert.Equal(t, int64(4), s.Ticks(at("2026-04-01T13:00:00Z")))
}

func TestWorkedExample_HourBoundaryProration_ActivatedQuarterPast(t *testing.T) {
	s := mustSchedule(t, Fee{PriceMicros: 40000000, Period: "1", Alignment: HourBoundary}, "2026-04-01T09:15:00Z")
	assert.Equal(t, int64(30000000), mustFee(t, s, "2026-04-01T09:00:00Z", "2026-04-01T10:00:00Z"))
	// The next hour is a whole tick.
	assert.Equal(t, int64(40000000), mustFee(t, s, "2026-04-01T10:00:00Z", "2026-04-01T11:00:00Z"))
	assert.True(t, at("2026-04-01T10:00:00Z").Equal(s.NextBoundary(at("2026-04-01T09:15:00Z"))))
}

func TestWorkedExample_MonthBoundaryProration_ChargedInLastHourOfAugust(t *testing.T) {
	s := mustSchedule(t, Fee{PriceMicros: 300000000, Period: "1", Alignment: MonthBoundary}, "2026-08-12T09:15:00Z")
	assert.True(t, at("2026-09-01T00:00:00Z").Equal(s.NextBoundary(at("2026-08-12T09:15:00Z"))))
	assert.Equal(t, int64(193326488), s.prorated)
	assert.Equal(t, int64(193326488), mustFee(t, s, "2026-08-31T23:00:00Z", "2026-09-01T00:00:00Z"), "hour row 2026-08-31T23:00:00Z")
	assert.Zero(t, mustFee(t, s, "2026-08-12T09:00:00Z", "2026-08-31T23:00:00Z"), "no charge before that row")
	assert.Zero(t, mustFee(t, s, "2026-09-01T00:00:00Z", "2026-09-30T23:00:00Z"), "nothing until October")
	assert.Equal(t, int64(300000000), mustFee(t, s, "2026-09-30T23:00:00Z", "2026-10-01T00:00:00Z"), "second tick whole")
}

func TestWorkedExample_Snap_ActivatedAtHourlyDeactivatedMidHour(t *testing.T) {
	s := mustSchedule(t, Fee{PriceMicros: 40000000, Period: "1h", Alignment: ActivatedAt}, "2026-04-01T09:00:00Z")
	assert.True(t, at("2026-04-01T14:00:00Z").Equal(s.Snap(at("2026-04-01T13:42:07Z"))))
	d := mustDeactivated(t, s, "2026-04-01T13:42:07Z")
	assert.Equal(t, int64(200000000), mustFee(t, d, "2026-04-01T09:00:00Z", "2027-01-01T00:00:00Z"), "5 ticks")
	assert.Equal(t, int64(40000000), mustFee(t, d, "2026-04-01T13:00:00Z", "2026-04-01T14:00:00Z"), "final tick whole")
	assert.Zero(t, mustFee(t, d, "2026-04-01T14:00:00Z", "2026-04-01T15:00:00Z"))
}

func TestWorkedExample_Snap_HourBoundaryDeactivatedAtTwenty(t *testing.T) {
	s := mustSchedule(t, Fee{PriceMicros: 40000000, Period: "1", Alignment: HourBoundary}, "2026-04-01T06:30:00Z")
	d := mustDeactivated(t, s, "2026-04-01T09:40:00Z")
	assert.True(t, at("2026-04-01T10:00:00Z").Equal(s.Snap(at("2026-04-01T09:40:00Z"))))
	assert.Equal(t, int64(40000000), mustFee(t, d, "2026-04-01T09:00:00Z", "2026-04-01T10:00:00Z"), "full 09:00-10:00 tick")
	assert.Zero(t, mustFee(t, d, "2026-04-01T10:00:00Z", "2026-04-02T00:00:00Z"))
}

func TestWorkedExample_Snap_ActivatedAtDailyEndedThreeDaysLater(t *testing.T) {
	s := mustSchedule(t, Fee{PriceMicros: 1000000, Period: "24h", Alignment: ActivatedAt}, "2026-04-01T09:15:00Z")
	assert.True(t, at("2026-04-05T09:15:00Z").Equal(s.Snap(at("2026-04-04T12:00:00Z"))), "day-4 09:15")
	d := mustDeactivated(t, s, "2026-04-04T12:00:00Z")
	assert.Equal(t, int64(4000000), mustFee(t, d, "2026-04-01T00:00:00Z", "2026-05-01T00:00:00Z"))
	assert.Equal(t, int64(1000000), mustFee(t, d, "2026-04-05T09:00:00Z", "2026-04-05T10:00:00Z"), "final tick in the 09:00 row of day 4")
}

func TestSnap_OnBoundaryNotMoved(t *testing.T) {
	s := mustSchedule(t, Fee{PriceMicros: 1, Period: "1h", Alignment: ActivatedAt}, "2026-04-01T09:00:00Z")
	assert.True(t, at("2026-04-01T13:00:00Z").Equal(s.Snap(at("2026-04-01T13:00:00Z"))))
	d := mustDeactivated(t, s, "2026-04-01T13:00:00Z")
	assert.Equal(t, int64(4), mustFee(t, d, "2026-04-01T00:00:00Z", "2026-04-02T00:00:00Z"))
}

// The opening-tick formula exactly, no cap. October has
// 31 days: 2656800 seconds from 10-01T06:00 to 11-01T00:00 against the
// 2629800-second proration month, so the opening costs more than a price.
func TestWorkedExample_MonthBoundaryOpening_303080082(t *testing.T) {
	s := mustSchedule(t, Fee{PriceMicros: 300000000, Period: "1", Alignment: MonthBoundary}, "2026-10-01T06:00:00Z")
	assert.Equal(t, int64(303080082), mustFee(t, s, "2026-10-01T06:00:00Z", "2026-11-01T00:00:00Z"))
	assert.Equal(t, int64(303080082), mustFee(t, s, "2026-10-31T23:00:00Z", "2026-11-01T00:00:00Z"), "charged in the hour row ending at the boundary")
	assert.Equal(t, int64(303080082+300000000), mustFee(t, s, "2026-10-01T06:00:00Z", "2026-12-01T00:00:00Z"))

	got, err := s.Buckets(at("2026-10-31T23:00:00Z"), nil)
	require.NoError(t, err)
	assert.Equal(t, int64(303080082), got[2].Projected, "the month bucket of October")
}

// An opening tick that is also the last is prorated
// as an opening; the deactivation itself never prorates.
func TestWorkedExample_OpeningTickAlsoLastIsProrated(t *testing.T) {
	s := mustSchedule(t, Fee{PriceMicros: 300000000, Period: "1", Alignment: MonthBoundary}, "2026-10-01T06:00:00Z")
	d := mustDeactivated(t, s, "2026-10-15T12:00:00Z")
	assert.Equal(t, int64(303080082), mustFee(t, d, "2026-10-01T00:00:00Z", "2027-01-01T00:00:00Z"),
		"one tick, at 11-01, prorated; nothing after the snap")

	h := mustSchedule(t, Fee{PriceMicros: 40000000, Period: "1", Alignment: HourBoundary}, "2026-04-01T09:15:00Z")
	hd := mustDeactivated(t, h, "2026-04-01T09:40:00Z")
	assert.Equal(t, int64(30000000), mustFee(t, hd, "2026-04-01T09:00:00Z", "2026-04-01T12:00:00Z"), "45 of 60 minutes")
}

// HourBoundary grids whose period does not divide 24
// are anchored at the Unix epoch.
func TestWorkedExample_HourBoundaryAnchoredAtEpoch(t *testing.T) {
	s := mustSchedule(t, Fee{PriceMicros: 7, Period: "7", Alignment: HourBoundary}, "2026-11-30T10:00:00Z")
	b := s.NextBoundary(s.ActivatedAt())
	assert.Zero(t, b.Unix()%(7*3600), "a multiple of 7 h since 1970-01-01T00:00:00Z")
	assert.True(t, b.After(s.ActivatedAt()) && !b.After(s.ActivatedAt().Add(7*time.Hour)))
	assert.Equal(t, int64(7*3600), s.NextBoundary(b).Unix()-b.Unix())
}
