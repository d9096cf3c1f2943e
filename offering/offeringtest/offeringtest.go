package offeringtest

import (
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	pb "github.com/condengine/condengine/pricebook/pricebooktest"
)

// Epoch is the creation time of built Offerings, the same as of built
// PriceBooks.
func Epoch() time.Time { return pb.Epoch() }

// Option adjusts an Offering being built.
type Option func(*finopsv1.Offering)

// New returns a live Offering with empty pricing, generation 1, the
// finalizer already added and uid "u-<namespace>-<name>".
func New(namespace, name string, opts ...Option) finopsv1.Offering {
	o := finopsv1.Offering{
		TypeMeta:   metav1.TypeMeta{APIVersion: finopsv1.APIVersion, Kind: finopsv1.KindOffering},
		ObjectMeta: pb.Meta(namespace, name),
	}
	o.Finalizers = []string{finopsv1.OfferingFinalizer}
	for _, f := range opts {
		f(&o)
	}
	return o
}

// Requires appends requirement entries, each "namespace/name" or a bare
// name (an entry without namespace).
func Requires(refs ...finopsv1.Reference) Option {
	return func(o *finopsv1.Offering) {
		if o.Spec.Compatibility == nil {
			o.Spec.Compatibility = &finopsv1.Compatibility{}
		}
		o.Spec.Compatibility.RequiredOfferings = append(o.Spec.Compatibility.RequiredOfferings, refs...)
	}
}

// Ref is a Reference.
func Ref(namespace, name string) finopsv1.Reference {
	return finopsv1.Reference{Namespace: namespace, Name: name}
}

// Ready sets status.ready to "True".
func Ready() Option { return func(o *finopsv1.Offering) { o.Status.Ready = metav1.ConditionTrue } }

// NotReady sets status.ready to "False".
func NotReady() Option { return func(o *finopsv1.Offering) { o.Status.Ready = metav1.ConditionFalse } }

// Meter appends a resourcePricing entry with an optional margin.
func Meter(name string, m *finopsv1.Margins) Option {
	return func(o *finopsv1.Offering) {
		o.Spec.Pricing.ResourcePricing = append(o.Spec.Pricing.ResourcePricing, finopsv1.ResourcePricing{Name: name, Margins: m})
	}
}

// Absolute is an absoluteMicros margin.
func Absolute(v int64) *finopsv1.Margins { return &finopsv1.Margins{AbsoluteMicros: &v} }

// Factor is a factorMilli margin.
func Factor(v int64) *finopsv1.Margins { return &finopsv1.Margins{FactorMilli: &v} }

// Fee sets the subscription fee.
func Fee(priceMicros int64, period, alignment string, minPeriods int64) Option {
	return func(o *finopsv1.Offering) {
		f := &finopsv1.SubscriptionFee{PriceMicros: priceMicros, Period: period, TickAlignment: alignment}
		if minPeriods > 0 {
			f.MinPeriods = &minPeriods
		}
		o.Spec.Pricing.SubscriptionFee = f
	}
}

// Deleting sets a deletion timestamp.
func Deleting() Option {
	return func(o *finopsv1.Offering) {
		t := metav1.NewTime(Epoch().Add(24 * time.Hour))
		o.DeletionTimestamp = &t
	}
}

// NoFinalizer removes every finalizer.
func NoFinalizer() Option { return func(o *finopsv1.Offering) { o.Finalizers = nil } }

// Resolved sets status.resolvedPricing.
func Resolved(p finopsv1.ResolvedPricing) Option {
	return func(o *finopsv1.Offering) { o.Status.ResolvedPricing = &p }
}

// Graph draws up to max Offerings over two namespaces whose requirements
// point at each other at random: loops, self-requirements, missing
// entries, entries without namespace, mixed readiness, metered pricing
// and deletions included. Identities are distinct.
func Graph(max int) *rapid.Generator[[]finopsv1.Offering] {
	return rapid.Custom(func(t *rapid.T) []finopsv1.Offering {
		n := rapid.IntRange(0, max).Draw(t, "n")
		ref := func(i int) finopsv1.Reference {
			return Ref([]string{"a", "b"}[i%2], fmt.Sprintf("o%d", i))
		}
		out := make([]finopsv1.Offering, n)
		for i := range out {
			k := ref(i)
			o := New(k.Namespace, k.Name)
			for e := rapid.IntRange(0, 3).Draw(t, "edges"); e > 0; e-- {
				switch rapid.IntRange(0, 9).Draw(t, "kind") {
				case 0:
					Requires(ref(n + rapid.IntRange(0, 2).Draw(t, "missing")))(&o)
				case 1:
					Requires(finopsv1.Reference{Name: ref(rapid.IntRange(0, n).Draw(t, "bare")).Name})(&o)
				default:
					Requires(ref(rapid.IntRange(0, n-1).Draw(t, "to")))(&o)
				}
			}
			switch rapid.IntRange(0, 2).Draw(t, "ready") {
			case 0:
				Ready()(&o)
			case 1:
				NotReady()(&o)
			}
			if rapid.IntRange(0, 3).Draw(t, "metered") == 0 {
				Meter(rapid.SampledFrom([]string{finopsv1.MeterCPUHour, finopsv1.MeterGPUHour, finopsv1.MeterSubscription, finopsv1.MeterNetworkGb}).Draw(t, "meter"),
					rapid.SampledFrom([]*finopsv1.Margins{nil, Absolute(200), Factor(1150)}).Draw(t, "margin"))(&o)
			}
			if rapid.IntRange(0, 5).Draw(t, "deleting") == 0 {
				Deleting()(&o)
			}
			out[i] = o
		}
		return out
	})
}
