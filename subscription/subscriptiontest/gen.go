package subscriptiontest

import (
	"fmt"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/subscription"
)

// GenNow is the instant the builders' worlds are set around (the
// generated ones are drawn around Instant).
func GenNow() time.Time { return time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC) }

var genNamespaces = []string{"team-a", "team-b"}

// Instant draws the now of a generated world: GenNow, an instant on a
// calendar edge (the end of a leap February and of a plain one, a year's
// last hour and first second, the end of a 30-day and of a 31-day month,
// the first of a month), or any hour of any month of 2026 to 2028; a
// third of them a fraction of a second past the whole second.
func Instant() *rapid.Generator[time.Time] {
	return rapid.Custom(func(t *rapid.T) time.Time {
		var at time.Time
		switch rapid.IntRange(0, 3).Draw(t, "nowKind") {
		case 0:
			at = GenNow()
		case 1:
			at = rapid.SampledFrom([]time.Time{
				time.Date(2028, 2, 29, 23, 30, 0, 0, time.UTC), time.Date(2028, 2, 28, 23, 0, 0, 0, time.UTC),
				time.Date(2028, 2, 1, 0, 0, 0, 0, time.UTC), time.Date(2028, 2, 14, 12, 0, 0, 0, time.UTC),
				time.Date(2027, 2, 28, 23, 59, 59, 0, time.UTC), time.Date(2026, 12, 31, 23, 0, 0, 0, time.UTC),
				time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 4, 30, 23, 45, 0, 0, time.UTC),
				time.Date(2027, 7, 31, 23, 59, 0, 0, time.UTC), time.Date(2028, 3, 1, 0, 0, 0, 0, time.UTC),
			}).Draw(t, "edge")
		default:
			y := rapid.IntRange(2026, 2028).Draw(t, "year")
			m := time.Month(rapid.IntRange(1, 12).Draw(t, "month"))
			last := time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
			d := rapid.SampledFrom([]int{1, 15, last}).Draw(t, "day")
			at = time.Date(y, m, d, rapid.IntRange(0, 23).Draw(t, "hour"), rapid.SampledFrom([]int{0, 30, 59}).Draw(t, "minute"),
				rapid.SampledFrom([]int{0, 59}).Draw(t, "second"), 0, time.UTC)
		}
		if rapid.IntRange(0, 2).Draw(t, "fraction") == 0 {
			at = at.Add(rapid.SampledFrom([]time.Duration{time.Nanosecond, 500 * time.Millisecond, time.Second - time.Nanosecond}).Draw(t, "fractionOf"))
		}
		return at
	})
}

// FeeGen draws a subscription fee of every tick alignment and every
// period form its alignment reads: ActivatedAt's hours, minutes and
// seconds ("1h", "90m", "3600s", a day, a month of hours), the boundary
// alignments' counts (and HourBoundary's "6h"), the periods that divide
// nothing evenly, now and then a zero period (which prices nothing and
// is refused), a minimum of periods, and prices up to 50 units.
func FeeGen() *rapid.Generator[finopsv1.SubscriptionFee] {
	return rapid.Custom(func(t *rapid.T) finopsv1.SubscriptionFee {
		f := finopsv1.SubscriptionFee{PriceMicros: rapid.Int64Range(1, 50_000_000).Draw(t, "price")}
		switch rapid.IntRange(0, 3).Draw(t, "alignment") {
		case 0:
			f.TickAlignment = finopsv1.AlignActivatedAt
			f.Period = rapid.SampledFrom([]string{"1h", "1h", "90m", "3600s", "30m", "45s", "24h", "720h", "0h"}).Draw(t, "activatedPeriod")
		case 1:
			f.TickAlignment = finopsv1.AlignHourBoundary
			f.Period = rapid.SampledFrom([]string{"1", "6", "5", "6h", "24", "00"}).Draw(t, "hourPeriod")
		case 2:
			f.TickAlignment = finopsv1.AlignDayBoundary
			f.Period = rapid.SampledFrom([]string{"1", "1", "7", "30", "0"}).Draw(t, "dayPeriod")
		default:
			f.TickAlignment = finopsv1.AlignMonthBoundary
			f.Period = rapid.SampledFrom([]string{"1", "1", "3", "12", "0"}).Draw(t, "monthPeriod")
		}
		if n := rapid.Int64Range(0, 3).Draw(t, "minPeriods"); n > 0 {
			f.MinPeriods = &n
		}
		return f
	})
}

// nameAt is name made n characters long, the API server's limit for a
// name being 253 and for a namespace 63; n of 0 leaves it as it is.
func nameAt(name string, n int) string {
	if n <= len(name) {
		return name
	}
	return name + "-" + strings.Repeat("x", n-len(name)-1)
}

// World draws a snapshot whose Subscriptions have empty statuses: a few
// Offerings (some not ready, some requiring others, some with a fee or an
// Orphan policy), Subscriptions in parent forests with the odd dangling
// or looping parent, targets that exist, are missing or name the
// Subscription itself, and now and then a failing read. Settle it to get
// a realistic starting point.
func World(t *rapid.T) subscription.Snapshot {
	nOff := rapid.IntRange(1, 5).Draw(t, "offerings")
	snap := subscription.Snapshot{Now: Instant().Draw(t, "now")}
	// Names and namespaces as long as the API server allows in one world
	// in four, so that messages naming them reach their limit.
	long := rapid.IntRange(0, 3).Draw(t, "longNames") == 0
	nameLen, nsLen := 0, 0
	if long {
		nameLen, nsLen = 253, 63
	}
	offName := func(i int) string { return nameAt(fmt.Sprintf("o%d", i), nameLen) }
	namespaces := []string{nameAt(genNamespaces[0], nsLen), nameAt(genNamespaces[1], nsLen)}
	for i := 0; i < nOff; i++ {
		o := ReadyOffering("shop", offName(i))
		if rapid.IntRange(0, 7).Draw(t, "offNotReady") == 0 {
			o.Status.Ready = metav1.ConditionFalse
		}
		for j := 0; j < nOff; j++ {
			if j != i && rapid.IntRange(0, 5).Draw(t, "requires") == 0 {
				if o.Spec.Compatibility == nil {
					o.Spec.Compatibility = &finopsv1.Compatibility{}
				}
				o.Spec.Compatibility.RequiredOfferings = append(o.Spec.Compatibility.RequiredOfferings,
					finopsv1.Reference{Namespace: "shop", Name: offName(j)})
			}
		}
		if rapid.Bool().Draw(t, "offOrphan") {
			o.Spec.Lifecycle = &finopsv1.OfferingLifecycle{OnParentDeactivate: finopsv1.PolicyOrphan}
		}
		if rapid.Bool().Draw(t, "fee") {
			fee := FeeGen().Draw(t, "subscriptionFee")
			o.Spec.Pricing.SubscriptionFee = &fee
		}
		snap.Offerings = append(snap.Offerings, o)
	}

	nSub := rapid.IntRange(1, 14).Draw(t, "subscriptions")
	name := func(i int) (string, string) { return namespaces[i%2], nameAt(fmt.Sprintf("s%d", i), nameLen) }
	for i := 0; i < nSub; i++ {
		ns, nm := name(i)
		off := rapid.IntRange(0, nOff-1).Draw(t, "offering")
		if rapid.IntRange(0, 9).Draw(t, "offMissing") == 0 {
			off = nOff // names no Offering
		}
		opts := []Option{Offering("shop", offName(off))}
		switch rapid.IntRange(0, 9).Draw(t, "parentKind") {
		case 0, 1, 2: // root
		case 3: // dangling
			opts = append(opts, Parent(ns, "ghost"))
		case 4: // any, loops possible
			pns, pnm := name(rapid.IntRange(0, nSub-1).Draw(t, "anyParent"))
			opts = append(opts, Parent(pns, pnm))
		default:
			if i > 0 {
				pns, pnm := name(rapid.IntRange(0, i-1).Draw(t, "parent"))
				opts = append(opts, Parent(pns, pnm))
			}
		}
		switch rapid.IntRange(0, 7).Draw(t, "lifecycle") {
		case 0:
			opts = append(opts, Policy(finopsv1.PolicyOrphan))
		case 1:
			opts = append(opts, Policy(finopsv1.PolicyDeactivate))
		case 2, 4:
			opts = append(opts, Target("v1", "ConfigMap", ns, fmt.Sprintf("t%d", i)))
			if rapid.IntRange(0, 2).Draw(t, "targetMissing") != 0 {
				snap.Objects = append(snap.Objects, subscription.ObjectRef{APIVersion: "v1", Kind: "ConfigMap", Namespace: ns, Name: fmt.Sprintf("t%d", i)})
			}
		case 3:
			if rapid.IntRange(0, 3).Draw(t, "selfTarget") == 0 {
				opts = append(opts, Target(finopsv1.APIVersion, finopsv1.KindSubscription, ns, nm))
			}
		}
		snap.Subscriptions = append(snap.Subscriptions, New(ns, nm, opts...))
	}
	if rapid.IntRange(0, 4).Draw(t, "failure") == 0 {
		ns, nm := name(rapid.IntRange(0, nSub-1).Draw(t, "failSub"))
		snap.Failures = append(snap.Failures, subscription.ObjectRef{Kind: finopsv1.KindSubscription, Namespace: ns, Name: nm})
	}
	return snap
}

// Disturb applies a few of the events that end or hold Subscriptions:
// deleting an object outright, setting a deletion timestamp, an Offering
// going not ready, a target disappearing, a read failing, time passing.
func Disturb(t *rapid.T, snap subscription.Snapshot) subscription.Snapshot {
	snap.Subscriptions = append([]finopsv1.Subscription(nil), snap.Subscriptions...)
	snap.Offerings = append([]finopsv1.Offering(nil), snap.Offerings...)
	snap.Objects = append([]subscription.ObjectRef(nil), snap.Objects...)
	snap.Now = snap.Now.Add(Elapsed().Draw(t, "elapsed"))
	for range rapid.IntRange(1, 4).Draw(t, "events") {
		switch rapid.IntRange(0, 5).Draw(t, "event") {
		case 0:
			if n := len(snap.Subscriptions); n > 0 {
				i := rapid.IntRange(0, n-1).Draw(t, "gone")
				snap.Subscriptions = append(snap.Subscriptions[:i], snap.Subscriptions[i+1:]...)
			}
		case 1:
			if n := len(snap.Subscriptions); n > 0 {
				i := rapid.IntRange(0, n-1).Draw(t, "delete")
				at := metav1.NewTime(snap.Now)
				snap.Subscriptions[i].DeletionTimestamp = &at
				snap.Subscriptions[i].Finalizers = []string{finopsv1.SubscriptionFinalizer}
			}
		case 2:
			if n := len(snap.Offerings); n > 0 {
				i := rapid.IntRange(0, n-1).Draw(t, "offDown")
				snap.Offerings[i].Status.Ready = metav1.ConditionFalse
			}
		case 3:
			if n := len(snap.Objects); n > 0 {
				i := rapid.IntRange(0, n-1).Draw(t, "targetGone")
				snap.Objects = append(snap.Objects[:i], snap.Objects[i+1:]...)
			}
		case 4:
			if n := len(snap.Subscriptions); n > 0 {
				s := snap.Subscriptions[rapid.IntRange(0, n-1).Draw(t, "failing")]
				snap.Failures = append(snap.Failures, subscription.ObjectRef{Kind: finopsv1.KindSubscription, Namespace: s.Namespace, Name: s.Name})
			}
		case 5:
			if n := len(snap.Subscriptions); n > 0 {
				i := rapid.IntRange(0, n-1).Draw(t, "edited")
				snap.Subscriptions[i].Generation++
			}
		}
	}
	if rapid.Bool().Draw(t, "collection") {
		c := &subscription.Collection{ScheduledHour: snap.Now.Truncate(time.Hour)}
		for _, s := range snap.Subscriptions {
			if rapid.Bool().Draw(t, "listed") {
				c.Results = append(c.Results, subscription.CollectionResult{Subscription: s.Key(),
					Buckets: rapid.IntRange(0, 3).Draw(t, "buckets"),
					Source:  rapid.SampledFrom([]subscription.Source{subscription.SourceDB, subscription.SourceCalculator, subscription.SourceError}).Draw(t, "source")})
			}
		}
		snap.Collection = c
	}
	return snap
}

// Elapsed draws how much time passes between two looks at a world: up
// to two hours in seconds, up to three days in hours, or up to seventy
// days, so that ticks, day and month boundaries pass in between.
func Elapsed() *rapid.Generator[time.Duration] {
	return rapid.Custom(func(t *rapid.T) time.Duration {
		switch rapid.IntRange(0, 3).Draw(t, "elapsedUnit") {
		case 0:
			return time.Duration(rapid.IntRange(1, 72).Draw(t, "hours")) * time.Hour
		case 1:
			return time.Duration(rapid.IntRange(1, 70).Draw(t, "days")) * 24 * time.Hour
		}
		return time.Duration(rapid.IntRange(1, 7200).Draw(t, "seconds")) * time.Second
	})
}

// Shuffle returns the snapshot with every list in a drawn order.
func Shuffle(t *rapid.T, snap subscription.Snapshot) subscription.Snapshot {
	snap.Subscriptions = permute(t, snap.Subscriptions)
	snap.Offerings = permute(t, snap.Offerings)
	snap.Objects = permute(t, snap.Objects)
	snap.Failures = permute(t, snap.Failures)
	if snap.Collection != nil {
		c := *snap.Collection
		c.Results = permute(t, c.Results)
		snap.Collection = &c
	}
	return snap
}

func permute[T any](t *rapid.T, in []T) []T {
	if len(in) < 2 {
		return in
	}
	out := append([]T(nil), in...)
	for i := len(out) - 1; i > 0; i-- {
		j := rapid.IntRange(0, i).Draw(t, "swap")
		out[i], out[j] = out[j], out[i]
	}
	return out
}
