package billing

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
)

func hourlyExample(t *testing.T) Schedule {
	return mustSchedule(t, Fee{PriceMicros: 40000000, Period: "1h", Alignment: ActivatedAt}, "2026-04-01T09:00:00Z")
}

func TestWindows_HalfOpenUTCCalendar(t *testing.T) {
	cases := []struct {
		name, run                            string
		hour, dayStart, monthStart, monthEnd string
	}{
		{"MidHourTruncated", "2026-04-01T13:42:07Z", "2026-04-01T13:00:00Z", "2026-04-01T00:00:00Z", "2026-04-01T00:00:00Z", "2026-05-01T00:00:00Z"},
		{"DecemberRollsIntoNextYear", "2026-12-31T23:00:00Z", "2026-12-31T23:00:00Z", "2026-12-31T00:00:00Z", "2026-12-01T00:00:00Z", "2027-01-01T00:00:00Z"},
		{"LeapFebruary", "2028-02-29T05:00:00Z", "2028-02-29T05:00:00Z", "2028-02-29T00:00:00Z", "2028-02-01T00:00:00Z", "2028-03-01T00:00:00Z"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := Windows(at(c.run))
			assert.True(t, at(c.hour).Equal(w[0][0]))
			assert.Equal(t, time.Hour, w[0][1].Sub(w[0][0]))
			assert.True(t, at(c.dayStart).Equal(w[1][0]))
			assert.Equal(t, 24*time.Hour, w[1][1].Sub(w[1][0]))
			assert.True(t, at(c.monthStart).Equal(w[2][0]))
			assert.True(t, at(c.monthEnd).Equal(w[2][1]))
		})
	}
}

func TestBuckets_DeactivationCutsProjected(t *testing.T) {
	s := mustDeactivated(t, hourlyExample(t), "2026-04-01T13:42:07Z")
	got, err := s.Buckets(at("2026-04-01T13:00:00Z"), nil)
	require.NoError(t, err)
	assert.Equal(t, int64(40000000), got[0].Projected, "final tick at 14:00 whole")
	assert.Equal(t, int64(160000000), got[1].Current)
	assert.Equal(t, int64(200000000), got[1].Projected, "5 ticks, not 15")
	assert.Equal(t, int64(200000000), got[2].Projected)

	later, err := s.Buckets(at("2026-04-01T15:00:00Z"), nil)
	require.NoError(t, err)
	assert.Equal(t, finopsv1.CostBucket{Granularity: finopsv1.GranularityHour, Start: later[0].Start, EndExclusive: later[0].EndExclusive}, later[0], "all zero: window only")
	assert.Equal(t, int64(200000000), later[1].Current)
	assert.Equal(t, int64(200000000), later[1].Projected)
}

func TestBuckets_ZeroValuesOmittedInJSON(t *testing.T) {
	s := mustDeactivated(t, hourlyExample(t), "2026-04-01T13:42:07Z")
	got, err := s.Buckets(at("2026-04-02T13:00:00Z"), nil)
	require.NoError(t, err)
	raw, err := json.Marshal(got[:2])
	require.NoError(t, err)
	assert.JSONEq(t, `[
		{"granularity":"hour","start":"2026-04-02T13:00:00Z","endExclusive":"2026-04-02T14:00:00Z"},
		{"granularity":"day","start":"2026-04-02T00:00:00Z","endExclusive":"2026-04-03T00:00:00Z"}
	]`, string(raw))
}

func TestBuckets_JSONMatchesCRDShape(t *testing.T) {
	got, err := hourlyExample(t).Buckets(at("2026-04-01T13:00:00Z"), nil)
	require.NoError(t, err)
	raw, err := json.Marshal(got[:])
	require.NoError(t, err)
	assert.JSONEq(t, `[
		{"granularity":"hour","start":"2026-04-01T13:00:00Z","endExclusive":"2026-04-01T14:00:00Z","projected":40000000,
		 "breakdown":[{"name":"subscription","projected":40000000}]},
		{"granularity":"day","start":"2026-04-01T00:00:00Z","endExclusive":"2026-04-02T00:00:00Z","current":160000000,"projected":600000000,
		 "breakdown":[{"name":"subscription","current":160000000,"projected":600000000}]},
		{"granularity":"month","start":"2026-04-01T00:00:00Z","endExclusive":"2026-05-01T00:00:00Z","current":160000000,"projected":28440000000,
		 "breakdown":[{"name":"subscription","current":160000000,"projected":28440000000}]}
	]`, string(raw))
}

func TestBuckets_ZeroPriceHasNoSubscriptionEntry(t *testing.T) {
	s := mustSchedule(t, Fee{PriceMicros: 0, Period: "1h", Alignment: ActivatedAt}, "2026-04-01T09:00:00Z")
	got, err := s.Buckets(at("2026-04-01T13:00:00Z"), nil)
	require.NoError(t, err)
	for _, b := range got {
		assert.Nil(t, b.Breakdown, "%s", b.Granularity)
	}
}

func TestBuckets_UsageHookAddsCurrentOnly(t *testing.T) {
	type call struct {
		g          finopsv1.Granularity
		start, end time.Time
	}
	var calls []call
	hook := func(g finopsv1.Granularity, start, end time.Time) []MeterCharge {
		calls = append(calls, call{g, start, end})
		switch g {
		case finopsv1.GranularityHour:
			return []MeterCharge{{Meter: "cpuHour", Micros: 700}}
		case finopsv1.GranularityDay:
			return []MeterCharge{{Meter: "ramGbHour", Micros: 5}, {Meter: "cpuHour", Micros: 1000}, {Meter: "ramGbHour", Micros: 6}, {Meter: "gpuHour", Micros: 0}}
		}
		return nil
	}
	got, err := hourlyExample(t).Buckets(at("2026-04-01T13:00:00Z"), hook)
	require.NoError(t, err)

	require.Len(t, calls, 3)
	assert.Equal(t, finopsv1.GranularityHour, calls[0].g)
	assert.True(t, at("2026-04-01T13:00:00Z").Equal(calls[0].start) && at("2026-04-01T14:00:00Z").Equal(calls[0].end))
	assert.Equal(t, finopsv1.GranularityMonth, calls[2].g)
	assert.True(t, at("2026-05-01T00:00:00Z").Equal(calls[2].end))

	assert.Equal(t, int64(700), got[0].Current, "in-progress usage shows in the hour bucket")
	assert.Equal(t, int64(40000000), got[0].Projected, "projected is never usage")
	assert.Equal(t, []finopsv1.CostMetric{{Name: "subscription", Projected: 40000000}, {Name: "cpuHour", Current: 700}}, got[0].Breakdown)

	assert.Equal(t, int64(160000000+1011), got[1].Current)
	assert.Equal(t, int64(600000000), got[1].Projected)
	assert.Equal(t, []finopsv1.CostMetric{
		{Name: "subscription", Current: 160000000, Projected: 600000000},
		{Name: "cpuHour", Current: 1000},
		{Name: "ramGbHour", Current: 11},
	}, got[1].Breakdown, "fee first, meters by name, duplicates summed, zero meters absent")

	assert.Len(t, got[2].Breakdown, 1)
}

func TestBuckets_UsageOnlyWhenFeeIsZero(t *testing.T) {
	s := mustDeactivated(t, hourlyExample(t), "2026-04-01T09:30:00Z")
	got, err := s.Buckets(at("2026-04-02T13:00:00Z"), func(finopsv1.Granularity, time.Time, time.Time) []MeterCharge {
		return []MeterCharge{{Meter: "networkGb", Micros: 3}}
	})
	require.NoError(t, err)
	assert.Equal(t, []finopsv1.CostMetric{{Name: "networkGb", Current: 3}}, got[1].Breakdown)
	assert.Equal(t, int64(3), got[1].Current)
	assert.Zero(t, got[1].Projected)
}

func TestBuckets_UsageHookBadResults(t *testing.T) {
	cases := []struct {
		name    string
		charges []MeterCharge
		want    error
	}{
		{"NegativeAmount", []MeterCharge{{Meter: "cpuHour", Micros: -1}}, ErrInvalidUsage},
		{"EmptyMeter", []MeterCharge{{Meter: "", Micros: 1}}, ErrInvalidUsage},
		{"SubscriptionMeterReserved", []MeterCharge{{Meter: "subscription", Micros: 1}}, ErrInvalidUsage},
		{"MeterSumOverflows", []MeterCharge{{Meter: "cpuHour", Micros: 1 << 62}, {Meter: "cpuHour", Micros: 1 << 62}}, ErrOverflow},
		{"CurrentOverflows", []MeterCharge{{Meter: "cpuHour", Micros: 1<<63 - 1}}, ErrOverflow},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := hourlyExample(t).Buckets(at("2026-04-01T13:00:00Z"), func(g finopsv1.Granularity, _, _ time.Time) []MeterCharge {
				if g == finopsv1.GranularityDay {
					return c.charges
				}
				return nil
			})
			assert.ErrorIs(t, err, c.want)
			assert.Contains(t, err.Error(), "day bucket")
		})
	}
}

func TestBuckets_HookSliceNotModified(t *testing.T) {
	charges := []MeterCharge{{Meter: "ramGbHour", Micros: 2}, {Meter: "cpuHour", Micros: 1}}
	_, err := hourlyExample(t).Buckets(at("2026-04-01T13:00:00Z"), func(finopsv1.Granularity, time.Time, time.Time) []MeterCharge { return charges })
	require.NoError(t, err)
	assert.Equal(t, []MeterCharge{{Meter: "ramGbHour", Micros: 2}, {Meter: "cpuHour", Micros: 1}}, charges)
}

func TestBuckets_SameInputSameOutput_WhateverHookOrder(t *testing.T) {
	a := []MeterCharge{{"cpuHour", 1}, {"ramGbHour", 2}, {"cpuHour", 3}, {"pvGbHour", 4}}
	b := []MeterCharge{{"pvGbHour", 4}, {"cpuHour", 3}, {"ramGbHour", 2}, {"cpuHour", 1}}
	x, err := hourlyExample(t).Buckets(at("2026-04-01T13:00:00Z"), func(finopsv1.Granularity, time.Time, time.Time) []MeterCharge { return a })
	require.NoError(t, err)
	y, err := hourlyExample(t).Buckets(at("2026-04-01T13:00:00Z"), func(finopsv1.Granularity, time.Time, time.Time) []MeterCharge { return b })
	require.NoError(t, err)
	xj, _ := json.Marshal(x)
	yj, _ := json.Marshal(y)
	assert.Equal(t, string(xj), string(yj))
}
