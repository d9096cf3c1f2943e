package offering_test

import (
	"fmt"
	"testing"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/offering"
	ot "github.com/condengine/condengine/offering/offeringtest"
	"github.com/condengine/condengine/pricebook"
	pb "github.com/condengine/condengine/pricebook/pricebooktest"
)

// benchGraph builds n Offerings in 20 namespaces: two fifths in chains of
// a thousand, one fifth requiring one of a few hubs (wide fan-in), one
// fifth in loops of fifty with tails running into them, and the rest
// metered, pricing against the active book.
func benchGraph(n int) offering.Snapshot {
	name := func(i int) finopsv1.Reference { return ot.Ref(fmt.Sprintf("ns-%02d", i%20), fmt.Sprintf("o-%07d", i)) }
	offs := make([]finopsv1.Offering, n)
	for i := range offs {
		k := name(i)
		o := ot.New(k.Namespace, k.Name, ot.Ready())
		switch part := i * 5 / n; {
		case part < 2: // chains: each requires the next, every thousandth ends
			if (i+1)%1000 != 0 && i+1 < n {
				ot.Requires(name(i + 1))(&o)
			}
		case part == 2: // fan-in on ten hubs, plus a second requirement
			ot.Requires(name(2*n/5+i%10), name(i%(2*n/5)))(&o)
		case part == 3: // loops of fifty; every other member has a tail entry
			base := i - i%50
			ot.Requires(name(base + (i+1)%50))(&o)
		default:
			ot.Meter(finopsv1.MeterCPUHour, ot.Factor(1150))(&o)
			ot.Meter(finopsv1.MeterGPUHour, ot.Absolute(200))(&o)
			ot.Requires(name(i % (n / 5)))(&o)
		}
		offs[i] = o
	}
	books := []finopsv1.PriceBook{pb.New("finops", "standard", pb.Incumbent(),
		pb.Rate(pricebook.CPUHour, "0.031"), pb.Rate(pricebook.GPUHour, "1.8"))}
	return offering.Snapshot{Now: now, Offerings: offs, PriceBooks: books}
}

func BenchmarkEvaluate(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		s := benchGraph(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = offering.Evaluate(s)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/offering")
		})
	}
}
