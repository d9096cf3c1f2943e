package billing_test

import (
	"fmt"
	"time"

	"github.com/condengine/condengine/billing"
)

// A 40.00 hourly fee on the activation grid, activated at 09:00 and priced
// by the run scheduled at 13:00 the same day.
func ExampleSchedule_Buckets() {
	fee := billing.Fee{PriceMicros: 40000000, Period: "1h", Alignment: billing.ActivatedAt}
	s, err := billing.NewSchedule(fee, time.Date(2026, 4, 1, 9, 0, 0, 0, time.UTC))
	if err != nil {
		fmt.Println(err)
		return
	}
	buckets, err := s.Buckets(time.Date(2026, 4, 1, 13, 0, 0, 0, time.UTC), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, b := range buckets {
		fmt.Printf("%-5s [%s, %s) current=%d projected=%d\n", b.Granularity,
			b.Start.Format(time.RFC3339), b.EndExclusive.Format(time.RFC3339), b.Current, b.Projected)
	}
	// Output:
	// hour  [2026-04-01T13:00:00Z, 2026-04-01T14:00:00Z) current=0 projected=40000000
	// day   [2026-04-01T00:00:00Z, 2026-04-02T00:00:00Z) current=160000000 projected=600000000
	// month [2026-04-01T00:00:00Z, 2026-05-01T00:00:00Z) current=160000000 projected=28440000000
}

// An hourly boundary-aligned fee activated at 09:15 pays three quarters of
// its first tick, in the 09:00-10:00 row.
func ExampleSchedule_Fee() {
	fee := billing.Fee{PriceMicros: 40000000, Period: "1", Alignment: billing.HourBoundary}
	s, _ := billing.NewSchedule(fee, time.Date(2026, 4, 1, 9, 15, 0, 0, time.UTC))
	first, _ := s.Fee(time.Date(2026, 4, 1, 9, 0, 0, 0, time.UTC), time.Date(2026, 4, 1, 10, 0, 0, 0, time.UTC))
	next, _ := s.Fee(time.Date(2026, 4, 1, 10, 0, 0, 0, time.UTC), time.Date(2026, 4, 1, 11, 0, 0, 0, time.UTC))
	fmt.Println(first, next)
	// Output: 30000000 40000000
}

// Deactivated at 13:42:07, the hourly grid snaps to 14:00: five whole ticks.
func ExampleSchedule_Deactivated() {
	fee := billing.Fee{PriceMicros: 40000000, Period: "1h", Alignment: billing.ActivatedAt, MinPeriods: 2}
	s, _ := billing.NewSchedule(fee, time.Date(2026, 4, 1, 9, 0, 0, 0, time.UTC))
	deactivatedAt := time.Date(2026, 4, 1, 13, 42, 7, 0, time.UTC)
	s, _ = s.Deactivated(deactivatedAt)
	total, _ := s.Fee(s.ActivatedAt(), time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC))
	run := time.Date(2026, 4, 1, 14, 0, 0, 0, time.UTC)
	fmt.Println(s.Snap(deactivatedAt).Format(time.RFC3339), total)
	fmt.Println(s.MinPeriodsReached(run), billing.ChargesSettled(deactivatedAt, run))
	// Output:
	// 2026-04-01T14:00:00Z 200000000
	// true true
}
