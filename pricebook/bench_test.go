package pricebook_test

import (
	"fmt"
	"testing"
	"time"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/pricebook"
	pb "github.com/condengine/condengine/pricebook/pricebooktest"
)

// benchBooks spreads n books over 50 namespaces with creation times that
// repeat, one incumbent and one annotated book near the end.
func benchBooks(n int) []finopsv1.PriceBook {
	books := make([]finopsv1.PriceBook, n)
	for i := range books {
		books[i] = pb.New(fmt.Sprintf("ns-%02d", i%50), fmt.Sprintf("book-%06d", i),
			pb.Created(pb.Epoch().Add(time.Duration(i%97)*time.Minute)),
			pb.Rate(pricebook.CPUHour, "0.031"), pb.Rate(pricebook.GPUHour, "1.80"))
	}
	books[n/3].Status.Active = true
	pb.Annotated("true")(&books[n-2])
	return books
}

func BenchmarkElect(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		books := benchBooks(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if pricebook.Elect(books) != n-2 {
					b.Fatal("wrong winner")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/book")
		})
	}
}

func BenchmarkEvaluate(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		books := benchBooks(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = pricebook.Evaluate(books, nil, now)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/book")
		})
	}
}
