package finops_test

import (
	"fmt"
	"testing"
	"time"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/offering/offeringtest"
	"github.com/condengine/condengine/pricebook/pricebooktest"
	st "github.com/condengine/condengine/subscription/subscriptiontest"
)

// benchWorld builds a FinOps snapshot of about n objects: one PriceBook in
// a hundred, a quarter Offerings (each requiring the one before it in its
// namespace, some metered) and the rest Subscriptions in families of ten,
// every child under the family's root. The world is settled once, so the
// benchmark measures a steady reconcile as a host runs it over and over.
func benchWorld(tb testing.TB, n int) finops.Snapshot {
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	s := finops.Snapshot{Now: now}
	for i := range max(1, n/100) {
		s.PriceBooks = append(s.PriceBooks, pricebooktest.New("finops", fmt.Sprintf("book-%05d", i),
			pricebooktest.Created(now.Add(-time.Duration(i+1)*time.Hour))))
	}
	nOff := n / 4
	for i := range nOff {
		ns := fmt.Sprintf("shop-%d", i/50)
		opts := []offeringtest.Option{offeringtest.Fee(40000000, "1h", "ActivatedAt", 0)}
		if i%50 > 0 {
			opts = append(opts, offeringtest.Requires(offeringtest.Ref(ns, fmt.Sprintf("o-%d", i-1))))
		}
		if i%7 == 0 {
			opts = append(opts, offeringtest.Meter("cpuHour", offeringtest.Factor(1150)))
		}
		s.Offerings = append(s.Offerings, offeringtest.New(ns, fmt.Sprintf("o-%d", i), opts...))
	}
	for i := range n - nOff - len(s.PriceBooks) {
		fam, m := i/10, i%10
		ns := fmt.Sprintf("tenant-%d", fam)
		off := finopsv1.Reference{Namespace: fmt.Sprintf("shop-%d", (fam%max(1, nOff))/50), Name: fmt.Sprintf("o-%d", (fam%max(1, nOff))/50*50)}
		opts := []st.Option{st.UID(fmt.Sprintf("u-%d-%d", fam, m)), st.Offering(off.Namespace, off.Name)}
		if m > 0 {
			opts = append(opts, st.Parent(ns, "m-0"))
		}
		s.Subscriptions = append(s.Subscriptions, st.New(ns, fmt.Sprintf("m-%d", m), opts...))
	}
	settled, _, err := finops.Settle(s, 200)
	if err != nil {
		tb.Fatal(err)
	}
	return settled
}

// BenchmarkEvaluate measures one reconcile of every FinOps object at 1k,
// 10k and 100k objects; ns/object should stay about flat across sizes.
func BenchmarkEvaluate(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		s := benchWorld(b, n)
		objects := len(s.PriceBooks) + len(s.Offerings) + len(s.Subscriptions)
		b.Run(fmt.Sprintf("objects=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = finops.Evaluate(s)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(objects), "ns/object")
		})
	}
}

// A settled world really is settled: the benchmark would otherwise
// measure a different, changing workload at each size.
func TestBenchWorldIsSettled(t *testing.T) {
	s := benchWorld(t, 1000)
	r := evaluate(s)
	writes := 0
	for _, o := range r.Subscriptions.Subscriptions {
		if o.Write {
			writes++
		}
	}
	if writes != 0 {
		t.Fatalf("%d Subscriptions still want a write", writes)
	}
	active := 0
	for _, x := range s.Subscriptions {
		if x.Status.ActivatedAt != nil {
			active++
		}
	}
	if active == 0 {
		t.Fatal("no Subscription activated: the world exercises nothing")
	}
}

// BenchmarkEvaluate_CostJobsAndProviders measures the kinds that get no
// status (CostJob schedules and FinOpsProvider plans) at 1k, 10k and
// 100k objects, which BenchmarkEvaluate's world leaves out; ns/object
// should stay about flat across sizes.
func BenchmarkEvaluate_CostJobsAndProviders(b *testing.B) {
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	intervals := []string{"", "1h", "6h", "24h", "90m", "weekly"}
	for _, n := range []int{1000, 10000, 100000} {
		s := finops.Snapshot{Now: now}
		for i := range n {
			ns, name := fmt.Sprintf("team-%d", i%97), fmt.Sprintf("job-%06d", n-i)
			if i%10 == 0 {
				p := finopsv1.FinOpsProvider{}
				p.Namespace, p.Name, p.Generation = ns, name, 1
				s.Providers = append(s.Providers, p)
				continue
			}
			j := finopsv1.CostJob{}
			j.Namespace, j.Name, j.Generation = ns, name, 1
			j.Spec.Interval = intervals[i%len(intervals)]
			s.CostJobs = append(s.CostJobs, j)
		}
		b.Run(fmt.Sprintf("objects=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := finops.Evaluate(s); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/object")
		})
	}
}
