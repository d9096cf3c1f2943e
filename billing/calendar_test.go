package billing

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Calendar edges and bad input: documented results or clear errors.

func TestTicks_TAtOrBeforeActivation_IsZero(t *testing.T) {
	s := mustSchedule(t, Fee{PriceMicros: 5, Period: "1h", Alignment: ActivatedAt}, "2026-04-01T09:00:00Z")
	assert.Zero(t, s.Ticks(at("2026-04-01T09:00:00Z")), "activatedAt itself is not a boundary")
	assert.Zero(t, s.Ticks(at("2026-03-01T00:00:00Z")))
	assert.Zero(t, mustFee(t, s, "2026-03-01T00:00:00Z", "2026-04-01T09:59:59Z"))
	assert.Equal(t, int64(5), mustFee(t, s, "2026-03-01T00:00:00Z", "2026-04-01T10:00:00Z"))
	assert.True(t, at("2026-04-01T10:00:00Z").Equal(s.NextBoundary(at("2025-01-01T00:00:00Z"))))
}

func TestBuckets_RunBeforeActivation_ProjectsFutureTicksOnly(t *testing.T) {
	s := mustSchedule(t, Fee{PriceMicros: 5, Period: "1h", Alignment: ActivatedAt}, "2026-04-01T20:00:00Z")
	got, err := s.Buckets(at("2026-04-01T13:00:00Z"), nil)
	require.NoError(t, err)
	assert.Zero(t, got[0].Current+got[0].Projected, "hour")
	assert.Zero(t, got[1].Current, "day current")
	assert.Equal(t, int64(4*5), got[1].Projected, "21:00..24:00")
}

func TestMonthBoundary_ActivatedOnThe31st(t *testing.T) {
	s := mustSchedule(t, Fee{PriceMicros: 2629800, Period: "1", Alignment: MonthBoundary}, "2026-01-31T12:00:00Z")
	assert.True(t, at("2026-02-01T00:00:00Z").Equal(s.NextBoundary(s.ActivatedAt())), "next month, not a normalised March 3rd")
	assert.Equal(t, int64(43200), s.prorated, "12 h of a 2,629,800 s month at 1 micro per second")
	assert.Equal(t, int64(2), s.Ticks(at("2026-03-01T00:00:00Z")))
	assert.Equal(t, int64(3), s.Ticks(at("2026-04-30T23:59:59Z")))

	q := mustSchedule(t, Fee{PriceMicros: 1, Period: "3", Alignment: MonthBoundary}, "2026-11-30T23:59:59Z")
	assert.True(t, at("2027-02-01T00:00:00Z").Equal(q.NextBoundary(q.ActivatedAt())))
	assert.True(t, at("2027-05-01T00:00:00Z").Equal(q.NextBoundary(at("2027-02-01T00:00:00Z"))))
}

func TestMonthBoundary_LeapFebruaryProration(t *testing.T) {
	leap := mustSchedule(t, Fee{PriceMicros: 2629800, Period: "1", Alignment: MonthBoundary}, "2028-02-01T00:00:00Z")
	assert.Equal(t, int64(29*86400), leap.prorated)
	plain := mustSchedule(t, Fee{PriceMicros: 2629800, Period: "1", Alignment: MonthBoundary}, "2027-02-01T00:00:00Z")
	assert.Equal(t, int64(28*86400), plain.prorated)
	mid := mustSchedule(t, Fee{PriceMicros: 2629800, Period: "1", Alignment: MonthBoundary}, "2028-02-29T00:00:00Z")
	assert.Equal(t, int64(86400), mid.prorated, "activated on the leap day")
}

// No cap on the opening tick; 31 days against the 30.4375-day month.
func TestMonthBoundary_OpeningTickNotCapped(t *testing.T) {
	s := mustSchedule(t, Fee{PriceMicros: 300000000, Period: "1", Alignment: MonthBoundary}, "2026-08-01T00:00:00Z")
	assert.Equal(t, int64(300000000*2678400/2629800), s.prorated, "2678400 / 2629800 of the price")
	assert.Equal(t, int64(305544147), mustFee(t, s, "2026-08-31T23:00:00Z", "2026-09-01T00:00:00Z"))
	assert.Equal(t, int64(305544147+300000000), mustFee(t, s, "2026-08-01T00:00:00Z", "2026-10-01T00:00:00Z"))
}

// An uncapped opening can exceed int64 where the price alone does not: an
// error, never a wrapped amount.
func TestMonthBoundary_OpeningOverflowIsAnError(t *testing.T) {
	s := mustSchedule(t, Fee{PriceMicros: math.MaxInt64, Period: "1", Alignment: MonthBoundary}, "2026-08-01T00:00:00Z")
	_, err := s.Fee(at("2026-08-01T00:00:00Z"), at("2026-09-01T00:00:00Z"))
	assert.ErrorIs(t, err, ErrOverflow)
	got, err := s.Fee(at("2026-09-01T00:00:00Z"), at("2026-10-01T00:00:00Z"))
	require.NoError(t, err, "later ticks are one price each")
	assert.Equal(t, int64(math.MaxInt64), got)
}

func TestDayBoundary_LeapDayAndMultiDayPeriod(t *testing.T) {
	s := mustSchedule(t, Fee{PriceMicros: 172800, Period: "2", Alignment: DayBoundary}, "2028-02-27T09:15:00Z")
	assert.True(t, at("2028-02-28T00:00:00Z").Equal(s.NextBoundary(s.ActivatedAt())), "first: next midnight")
	assert.True(t, at("2028-03-01T00:00:00Z").Equal(s.NextBoundary(at("2028-02-28T00:00:00Z"))), "then two days, through Feb 29")
	assert.Equal(t, int64(53100), s.prorated, "14h45m against the full two-day period")

	m := mustSchedule(t, Fee{PriceMicros: 7, Period: "1", Alignment: DayBoundary}, "2026-04-01T00:00:00Z")
	assert.True(t, at("2026-04-02T00:00:00Z").Equal(m.NextBoundary(m.ActivatedAt())), "activated at midnight: first boundary a day later")
	assert.Equal(t, int64(7), m.prorated)
}

func TestActivatedAt_CrossesLeapDay(t *testing.T) {
	s := mustSchedule(t, Fee{PriceMicros: 1, Period: "24h", Alignment: ActivatedAt}, "2028-02-28T10:00:00Z")
	assert.True(t, at("2028-02-29T10:00:00Z").Equal(s.NextBoundary(s.ActivatedAt())))
	assert.True(t, at("2028-03-01T10:00:00Z").Equal(s.NextBoundary(at("2028-02-29T10:00:00Z"))))
}

func TestHourBoundary_GridFromEpoch(t *testing.T) {
	six := mustSchedule(t, Fee{PriceMicros: 1, Period: "6", Alignment: HourBoundary}, "2026-04-01T07:00:00Z")
	assert.True(t, at("2026-04-01T12:00:00Z").Equal(six.NextBoundary(six.ActivatedAt())))
	assert.True(t, at("2026-04-01T18:00:00Z").Equal(six.NextBoundary(at("2026-04-01T12:00:00Z"))))
	assert.True(t, at("2026-04-02T00:00:00Z").Equal(six.NextBoundary(at("2026-04-01T18:00:00Z"))))

	five := mustSchedule(t, Fee{PriceMicros: 1, Period: "5", Alignment: HourBoundary}, "2026-04-01T00:30:00Z")
	b := five.NextBoundary(five.ActivatedAt())
	assert.True(t, at("2026-04-01T04:00:00Z").Equal(b), "epoch-anchored 5 h grid, got %s", b)
	assert.Zero(t, b.Unix()%(5*3600))
}

// activatedAt is read at whole seconds, as the API
// server stores it; other instants keep their fraction.
func TestSubSecondInstants_ActivatedAtReadAtWholeSeconds(t *testing.T) {
	s := mustSchedule(t, Fee{PriceMicros: 1, Period: "1h", Alignment: ActivatedAt}, "2026-04-01T09:00:00.5Z")
	assert.True(t, at("2026-04-01T09:00:00Z").Equal(s.ActivatedAt()))
	assert.Zero(t, s.Ticks(at("2026-04-01T09:59:59.999Z")))
	assert.Equal(t, int64(1), s.Ticks(at("2026-04-01T10:00:00Z")))

	h := mustSchedule(t, Fee{PriceMicros: 40000000, Period: "1", Alignment: HourBoundary}, "2026-04-01T09:15:00.5Z")
	assert.Equal(t, int64(40000000*2700/3600), h.prorated, "2700 whole seconds to 10:00, the fraction dropped")
}

// A deactivatedAt is read at whole seconds too: half a second past a
// month boundary lies on it, so nothing of the month after is charged.
func TestSubSecondInstants_DeactivatedAtReadAtWholeSeconds(t *testing.T) {
	s := mustSchedule(t, Fee{PriceMicros: 1000, Period: "1", Alignment: MonthBoundary}, "2026-09-01T00:00:00Z")
	d := mustDeactivated(t, s, "2026-11-01T00:00:00.5Z")
	assert.Equal(t, int64(985+1000), mustFee(t, d, "2026-09-01T00:00:00Z", "2027-01-01T00:00:00Z"),
		"the October boundary (prorated over the 30.4375-day month) and November's; December's is after the deactivation")
	assert.Equal(t, int64(2), d.billedTicks(at("2027-01-01T00:00:00Z")))
}

func TestDeactivatedBeforeActivation_ChargesFirstTick(t *testing.T) {
	s := mustSchedule(t, Fee{PriceMicros: 40000000, Period: "1", Alignment: HourBoundary}, "2026-04-01T09:15:00Z")
	d := mustDeactivated(t, s, "2026-04-01T08:00:00Z")
	assert.Equal(t, int64(30000000), mustFee(t, d, "2026-04-01T00:00:00Z", "2026-04-02T00:00:00Z"), "one prorated tick (Decisions 4, 5)")
}

func TestDeactivatedBeforeFirstBoundary_OpeningTickStaysProrated(t *testing.T) {
	s := mustSchedule(t, Fee{PriceMicros: 40000000, Period: "1", Alignment: HourBoundary}, "2026-04-01T09:15:00Z")
	d := mustDeactivated(t, s, "2026-04-01T09:40:00Z")
	assert.Equal(t, int64(30000000), mustFee(t, d, "2026-04-01T09:00:00Z", "2026-04-02T00:00:00Z"))
}

func TestUTCOnly_OtherLocationsConverted(t *testing.T) {
	east := time.FixedZone("UTC+5:30", 5*3600+1800)
	f := Fee{PriceMicros: 40000000, Period: "1", Alignment: DayBoundary}
	utc := mustSchedule(t, f, "2026-04-01T20:00:00Z")
	local, err := NewSchedule(f, at("2026-04-01T20:00:00Z").In(east))
	require.NoError(t, err)
	assert.Equal(t, utc, local)
	assert.Equal(t, time.UTC, local.NextBoundary(at("2026-04-01T20:00:00Z").In(east)).Location())

	run := at("2026-04-30T23:30:00Z")
	a, err := utc.Buckets(run, nil)
	require.NoError(t, err)
	b, err := utc.Buckets(run.In(east), nil)
	require.NoError(t, err)
	assert.Equal(t, a, b, "windows are UTC whatever the caller's location")
	assert.True(t, at("2026-04-01T00:00:00Z").Equal(b[2].Start.Time), "April in UTC although it is May 1st in the caller's zone")
}

func TestTimeRange_ErrorsAndClamps(t *testing.T) {
	f := Fee{PriceMicros: 1, Period: "1s", Alignment: ActivatedAt}
	_, err := NewSchedule(f, time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC))
	assert.ErrorIs(t, err, ErrTimeRange)
	_, err = NewSchedule(f, time.Date(0, 12, 31, 0, 0, 0, 0, time.UTC))
	assert.ErrorIs(t, err, ErrTimeRange)

	s := mustSchedule(t, f, "9999-12-31T23:59:00Z")
	far := time.Date(300000, 1, 1, 0, 0, 0, 0, time.UTC)
	assert.Equal(t, int64(60), s.Ticks(far), "beyond the range counts as its edge")
	_, err = s.Fee(s.ActivatedAt(), far)
	assert.ErrorIs(t, err, ErrTimeRange)
	_, err = s.Deactivated(far)
	assert.ErrorIs(t, err, ErrTimeRange)
	_, err = s.Buckets(far, nil)
	assert.ErrorIs(t, err, ErrTimeRange)
	got, err := s.Buckets(at("9999-12-31T23:59:59Z"), nil)
	require.NoError(t, err, "December 9999 is the last supported month")
	assert.Equal(t, int64(60), got[2].Projected)

	old := mustSchedule(t, Fee{PriceMicros: 1, Period: "5", Alignment: HourBoundary}, "0001-01-01T00:00:00Z")
	assert.True(t, at("0001-01-01T00:00:00Z").Before(old.NextBoundary(old.ActivatedAt())))
	assert.Zero(t, old.NextBoundary(old.ActivatedAt()).Unix()%(5*3600), "grid stays epoch-aligned before 1970")
}

func TestFee_WindowEndBeforeStart(t *testing.T) {
	s := mustSchedule(t, Fee{PriceMicros: 1, Period: "1h", Alignment: ActivatedAt}, "2026-04-01T09:00:00Z")
	_, err := s.Fee(at("2026-04-02T00:00:00Z"), at("2026-04-01T00:00:00Z"))
	assert.ErrorIs(t, err, ErrInvalidWindow)
}

func TestFee_OverflowIsAnError(t *testing.T) {
	s := mustSchedule(t, Fee{PriceMicros: 1 << 62, Period: "1h", Alignment: ActivatedAt}, "2026-04-01T09:00:00Z")
	v, err := s.Fee(s.ActivatedAt(), at("2026-04-01T10:00:00Z"))
	require.NoError(t, err)
	assert.Equal(t, int64(1<<62), v)
	_, err = s.Fee(s.ActivatedAt(), at("2026-04-01T11:00:00Z"))
	assert.True(t, errors.Is(err, ErrOverflow), "%v", err)
	_, err = s.Buckets(at("2026-04-01T13:00:00Z"), nil)
	assert.ErrorIs(t, err, ErrOverflow)
}

func TestZeroSchedule_ChargesNothingNoPanic(t *testing.T) {
	var s Schedule
	assert.Zero(t, s.Ticks(at("2026-04-01T00:00:00Z")))
	assert.Zero(t, mustFee(t, s, "2026-04-01T00:00:00Z", "2026-05-01T00:00:00Z"))
	d := mustDeactivated(t, s, "2026-04-01T00:00:00Z")
	got, err := d.Buckets(at("2026-04-01T13:00:00Z"), nil)
	require.NoError(t, err)
	assert.Zero(t, got[2].Projected)
	assert.True(t, s.MinPeriodsReached(at("2026-04-01T00:00:00Z")))
	assert.NotPanics(t, func() { s.Snap(at("2026-04-01T00:00:00Z")); s.NextBoundary(at("2026-04-01T00:00:00Z")) })
}
