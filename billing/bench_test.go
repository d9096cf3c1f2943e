package billing

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

type benchSub struct {
	fee   Fee
	a     time.Time
	deact *time.Time
}

var benchRun = time.Date(2026, 4, 17, 13, 0, 0, 0, time.UTC)

// benchPopulation is a fixed, seeded mix of alignments and periods, activated
// up to 90 days before the run, a third of them deactivated.
func benchPopulation(n int) []benchSub {
	rng := rand.New(rand.NewPCG(7, uint64(n)))
	fees := []Fee{
		{PriceMicros: 40000000, Period: "1h", Alignment: ActivatedAt},
		{PriceMicros: 1000000, Period: "30m", Alignment: ActivatedAt},
		{PriceMicros: 900000000, Period: "24h", Alignment: ActivatedAt},
		{PriceMicros: 40000000, Period: "1", Alignment: HourBoundary},
		{PriceMicros: 200000000, Period: "6", Alignment: HourBoundary},
		{PriceMicros: 900000000, Period: "1", Alignment: DayBoundary},
		{PriceMicros: 300000000, Period: "1", Alignment: MonthBoundary, MinPeriods: 2},
		{PriceMicros: 800000000, Period: "3", Alignment: MonthBoundary},
	}
	subs := make([]benchSub, n)
	for i := range subs {
		back := time.Duration(rng.Int64N(int64(90*24*time.Hour/time.Second))) * time.Second
		s := benchSub{fee: fees[rng.IntN(len(fees))], a: benchRun.Add(-back)}
		if rng.IntN(3) == 0 {
			d := s.a.Add(time.Duration(rng.Int64N(int64(back/time.Second)+1)) * time.Second)
			s.deact = &d
		}
		subs[i] = s
	}
	return subs
}

// BenchmarkBuckets is what a charge collection run does per Subscription
// for status.costs: build the schedule from the fee block, apply the
// deactivation, compute the three buckets. Reported per Subscription.
func BenchmarkBuckets(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		subs := benchPopulation(n)
		b.Run(fmt.Sprintf("subs=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for i := range subs {
					s, err := NewSchedule(subs[i].fee, subs[i].a)
					if err == nil && subs[i].deact != nil {
						s, err = s.Deactivated(*subs[i].deact)
					}
					if err == nil {
						_, err = s.Buckets(benchRun, nil)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/sub")
		})
	}
}

// BenchmarkBucketsWalk is the tick-walking baseline on the same
// population, for the ratio against BenchmarkBuckets. Only the two smaller
// sizes: the walk is the slow path this package avoids.
func BenchmarkBucketsWalk(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		subs := benchPopulation(n)
		b.Run(fmt.Sprintf("subs=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for i := range subs {
					w := newWalker(subs[i].fee, subs[i].a)
					w.deact = subs[i].deact
					_ = w.buckets(benchRun)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/sub")
		})
	}
}

// TestBenchPopulation_ClosedFormMatchesWalk checks the benchmark population
// itself against the oracle, so the two benchmarks compute the same thing.
func TestBenchPopulation_ClosedFormMatchesWalk(t *testing.T) {
	for _, sub := range benchPopulation(300) {
		s, err := NewSchedule(sub.fee, sub.a)
		if err == nil && sub.deact != nil {
			s, err = s.Deactivated(*sub.deact)
		}
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Buckets(benchRun, nil)
		if err != nil {
			t.Fatal(err)
		}
		w := newWalker(sub.fee, sub.a)
		w.deact = sub.deact
		for i, want := range w.buckets(benchRun) {
			if want[0].Int64() != got[i].Current || want[1].Int64() != got[i].Projected {
				t.Fatalf("%+v %s: %d/%d, walk %s/%s", sub.fee, got[i].Granularity, got[i].Current, got[i].Projected, want[0], want[1])
			}
		}
	}
}
