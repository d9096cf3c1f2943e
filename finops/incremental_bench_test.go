package finops_test

import (
	"fmt"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/offering/offeringtest"
	st "github.com/condengine/condengine/subscription/subscriptiontest"
)

// familyWorld builds a settled FinOps world of about n objects: one
// Offering per hundred objects, the rest Subscriptions in families of
// the given size, every member under the family's root and bound to one
// of two Offerings of its shop.
func familyWorld(tb testing.TB, n, family int) finops.Snapshot {
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	s := finops.Snapshot{Now: now}
	nOff := max(2, n/100)
	for i := range nOff {
		s.Offerings = append(s.Offerings, offeringtest.New(fmt.Sprintf("shop-%d", i/2), fmt.Sprintf("o-%d", i%2),
			offeringtest.Fee(40000000, "1h", "ActivatedAt", 0)))
	}
	for i := range n - nOff {
		fam, m := i/family, i%family
		ns := fmt.Sprintf("tenant-%d", fam)
		shop := fmt.Sprintf("shop-%d", fam%(nOff/2))
		opts := []st.Option{st.UID(fmt.Sprintf("u-%d-%d", fam, m)), st.Offering(shop, fmt.Sprintf("o-%d", m%2))}
		if m > 0 {
			opts = append(opts, st.Parent(ns, "m-0"))
		}
		s.Subscriptions = append(s.Subscriptions, st.New(ns, "m-"+strconv.Itoa(m), opts...))
	}
	settled, _, err := finops.Settle(s, 20)
	if err != nil {
		tb.Fatal(err)
	}
	return settled
}

// cpuNow is the process's CPU time: on a shared machine the figure to
// compare, where wall time swings with other load.
func cpuNow() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per operation since start.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64((cpuNow()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkFinOpsIncremental measures, at 100k objects in families of
// 10, 100 and 1,000 Subscriptions, one Subscription's spec edited (step:
// its family re-evaluated), one moved to its family's other Offering
// (move: its family and every Offering re-evaluated), and the full pass
// a host would make otherwise (full).
func BenchmarkFinOpsIncremental(b *testing.B) {
	const n = 100_000
	for _, family := range []int{10, 100, 1000} {
		s := familyWorld(b, n, family)
		inc, _, err := finops.NewIncremental(s)
		if err != nil {
			b.Fatal(err)
		}
		edited := s.Subscriptions[len(s.Subscriptions)/2]
		name := fmt.Sprintf("objects=%d/family=%d", n, family)
		b.Run(name+"/step", func(b *testing.B) {
			b.ReportAllocs()
			x := edited
			defer reportCPU(b, cpuNow())
			for b.Loop() {
				x.Generation++
				st, err := inc.SetSubscription(x)
				if err != nil || st.Full || st.Offerings || len(st.Subscriptions) != family {
					b.Fatalf("step re-evaluated %d Subscriptions (full %v, offerings %v, %v), want %d", len(st.Subscriptions), st.Full, st.Offerings, err, family)
				}
			}
		})
		b.Run(name+"/move", func(b *testing.B) {
			b.ReportAllocs()
			x := edited
			defer reportCPU(b, cpuNow())
			for b.Loop() {
				if x.Spec.OfferingRef.Name == "o-0" {
					x.Spec.OfferingRef.Name = "o-1"
				} else {
					x.Spec.OfferingRef.Name = "o-0"
				}
				if st, err := inc.SetSubscription(x); err != nil || st.Full || !st.Offerings {
					b.Fatalf("move: full %v, offerings %v, %v", st.Full, st.Offerings, err)
				}
			}
		})
		_, _ = inc.SetSubscription(edited)
		b.Run(name+"/full", func(b *testing.B) {
			b.ReportAllocs()
			defer reportCPU(b, cpuNow())
			for b.Loop() {
				if _, err := finops.Evaluate(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// The benchmark's worlds are settled and their families are what the
// benchmark says: a step re-evaluates one family, and nothing is due.
func TestFamilyWorld(t *testing.T) {
	s := familyWorld(t, 2_000, 100)
	r, err := finops.Evaluate(s)
	if err != nil {
		t.Fatal(err)
	}
	if r.Changed() {
		t.Fatal("the world is not settled")
	}
	active := 0
	for _, x := range s.Subscriptions {
		if x.Status.ActivatedAt != nil {
			active++
		}
	}
	if active != len(s.Subscriptions) {
		t.Fatalf("%d of %d Subscriptions active", active, len(s.Subscriptions))
	}
	inc, _, err := finops.NewIncremental(s)
	if err != nil {
		t.Fatal(err)
	}
	x := s.Subscriptions[150]
	x.Generation++
	st, err := inc.SetSubscription(x)
	if err != nil || st.Full || len(st.Subscriptions) != 100 {
		t.Fatalf("a step re-evaluated %d Subscriptions (full %v, %v), want its family of 100", len(st.Subscriptions), st.Full, err)
	}
}
