package pricebooktest

import (
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/pricebook"
)

// Epoch is the creation time New gives a book unless told otherwise.
func Epoch() time.Time { return time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC) }

// Option adjusts a book being built.
type Option func(*finopsv1.PriceBook)

// New returns a ready-to-parse currency book with all rates unset,
// created at Epoch, generation 1, uid "u-<namespace>-<name>".
func New(namespace, name string, opts ...Option) finopsv1.PriceBook {
	b := finopsv1.PriceBook{
		TypeMeta:   metav1.TypeMeta{APIVersion: finopsv1.APIVersion, Kind: finopsv1.KindPriceBook},
		ObjectMeta: Meta(namespace, name),
		Spec:       finopsv1.PriceBookSpec{Currency: "EUR", ValuationMode: finopsv1.ValuationCurrency, Rates: &finopsv1.Rates{}},
	}
	for _, o := range opts {
		o(&b)
	}
	return b
}

// Meta is the metadata of a built FinOps object: generation 1, created
// at Epoch, uid "u-<namespace>-<name>". The offeringtest builders share
// it.
func Meta(namespace, name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Namespace: namespace, Name: name, Generation: 1,
		UID: types.UID("u-" + namespace + "-" + name), CreationTimestamp: metav1.NewTime(Epoch())}
}

// Created sets metadata.creationTimestamp.
func Created(t time.Time) Option {
	return func(b *finopsv1.PriceBook) { b.CreationTimestamp = metav1.NewTime(t) }
}

// Annotated sets the active annotation to value.
func Annotated(value string) Option {
	return func(b *finopsv1.PriceBook) {
		if b.Annotations == nil {
			b.Annotations = map[string]string{}
		}
		b.Annotations[finopsv1.ActiveAnnotation] = value
	}
}

// Incumbent sets status.active.
func Incumbent() Option { return func(b *finopsv1.PriceBook) { b.Status.Active = true } }

// Percent makes the book a percent book.
func Percent() Option {
	return func(b *finopsv1.PriceBook) { b.Spec.ValuationMode = finopsv1.ValuationPercent }
}

// NoRates removes the rates block.
func NoRates() Option { return func(b *finopsv1.PriceBook) { b.Spec.Rates = nil } }

// Rate sets one rate.
func Rate(f pricebook.Field, value string) Option {
	return func(b *finopsv1.PriceBook) {
		if b.Spec.Rates == nil {
			b.Spec.Rates = &finopsv1.Rates{}
		}
		r := b.Spec.Rates
		p := map[pricebook.Field]*string{
			pricebook.CPUHour: &r.CPUHour, pricebook.SpotCPUHour: &r.SpotCPUHour,
			pricebook.RAMGbHour: &r.RAMGbHour, pricebook.SpotRAMGbHour: &r.SpotRAMGbHour,
			pricebook.PVGbHour: &r.PVGbHour, pricebook.GPUHour: &r.GPUHour, pricebook.NetworkGiB: &r.NetworkGiB,
		}[f]
		if p != nil {
			*p = value
		}
	}
}

// Generation sets metadata.generation.
func Generation(g int64) Option { return func(b *finopsv1.PriceBook) { b.Generation = g } }

// GoodRate draws a rate string that parses: empty, or digits with up to
// six decimals, small enough for int64 micro-units.
func GoodRate() *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		if rapid.IntRange(0, 5).Draw(t, "empty") == 0 {
			return ""
		}
		whole := rapid.Int64Range(0, 9_000_000_000_000).Draw(t, "whole")
		dec := rapid.IntRange(0, 6).Draw(t, "decimals")
		if dec == 0 {
			return fmt.Sprint(whole)
		}
		frac := rapid.StringMatching(fmt.Sprintf("[0-9]{%d}", dec)).Draw(t, "frac")
		return fmt.Sprintf("%d.%s", whole, frac)
	})
}

// AnyRate draws a rate string that may or may not parse: good rates mixed
// with signs, exponents, seven decimals, thirty digits and junk.
func AnyRate() *rapid.Generator[string] {
	return rapid.OneOf(
		GoodRate(), GoodRate(), GoodRate(),
		rapid.SampledFrom([]string{"-1", "+1", "3e-2", "1E5", "0.1234567", "123456789012345678901234567890",
			"9223372036854.775808", "1.", ".5", "1,000", "€1", " 1", "0x10"}),
		rapid.String(),
	)
}

// Books draws up to max books with distinct identities over a few
// namespaces, creation times that often tie, and random annotations,
// incumbency, modes and rates.
func Books(max int) *rapid.Generator[[]finopsv1.PriceBook] {
	return rapid.Custom(func(t *rapid.T) []finopsv1.PriceBook {
		n := rapid.IntRange(0, max).Draw(t, "n")
		seen := map[[2]string]bool{}
		var out []finopsv1.PriceBook
		for i := 0; i < n; i++ {
			ns := rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "ns")
			name := rapid.SampledFrom([]string{"p", "q", "r", "s", "t"}).Draw(t, "name")
			if seen[[2]string{ns, name}] {
				continue
			}
			seen[[2]string{ns, name}] = true
			b := New(ns, name, Created(Epoch().Add(time.Duration(rapid.IntRange(0, 3).Draw(t, "age"))*time.Hour)))
			switch rapid.IntRange(0, 4).Draw(t, "annotation") {
			case 0:
				Annotated("true")(&b)
			case 1:
				Annotated(rapid.SampledFrom([]string{"True", "false", "yes", ""}).Draw(t, "value"))(&b)
			}
			b.Status.Active = rapid.Bool().Draw(t, "active")
			if rapid.IntRange(0, 4).Draw(t, "percent") == 0 {
				Percent()(&b)
			}
			if rapid.IntRange(0, 6).Draw(t, "norates") == 0 {
				NoRates()(&b)
			} else {
				for f := pricebook.Field(0); f < pricebook.NumFields; f++ {
					Rate(f, AnyRate().Draw(t, f.String()))(&b)
				}
			}
			out = append(out, b)
		}
		return out
	})
}
