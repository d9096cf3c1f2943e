package subscriptiontest

import (
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/subscription"
)

// GenNow is the instant generated snapshots are evaluated at.
func GenNow() time.Time { return time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC) }

var genNamespaces = []string{"team-a", "team-b"}

// World draws a snapshot whose Subscriptions have empty statuses: a few
// Offerings (some not ready, some requiring others, some with a fee or an
// Orphan policy), Subscriptions in parent forests with the odd dangling
// or looping parent, targets that exist, are missing or name the
// Subscription itself, and now and then a failing read. Settle it to get
// a realistic starting point.
func World(t *rapid.T) subscription.Snapshot {
	nOff := rapid.IntRange(1, 5).Draw(t, "offerings")
	snap := subscription.Snapshot{Now: GenNow()}
	for i := 0; i < nOff; i++ {
		o := ReadyOffering("shop", fmt.Sprintf("o%d", i))
		if rapid.IntRange(0, 7).Draw(t, "offNotReady") == 0 {
			o.Status.Ready = metav1.ConditionFalse
		}
		for j := 0; j < nOff; j++ {
			if j != i && rapid.IntRange(0, 5).Draw(t, "requires") == 0 {
				if o.Spec.Compatibility == nil {
					o.Spec.Compatibility = &finopsv1.Compatibility{}
				}
				o.Spec.Compatibility.RequiredOfferings = append(o.Spec.Compatibility.RequiredOfferings,
					finopsv1.Reference{Namespace: "shop", Name: fmt.Sprintf("o%d", j)})
			}
		}
		if rapid.Bool().Draw(t, "offOrphan") {
			o.Spec.Lifecycle = &finopsv1.OfferingLifecycle{OnParentDeactivate: finopsv1.PolicyOrphan}
		}
		if rapid.Bool().Draw(t, "fee") {
			o = Fee(o, rapid.Int64Range(1, 50_000_000).Draw(t, "price"), "1h", finopsv1.AlignActivatedAt,
				rapid.Int64Range(0, 3).Draw(t, "minPeriods"))
		}
		snap.Offerings = append(snap.Offerings, o)
	}

	nSub := rapid.IntRange(1, 14).Draw(t, "subscriptions")
	name := func(i int) (string, string) { return genNamespaces[i%2], fmt.Sprintf("s%d", i) }
	for i := 0; i < nSub; i++ {
		ns, nm := name(i)
		off := rapid.IntRange(0, nOff-1).Draw(t, "offering")
		if rapid.IntRange(0, 9).Draw(t, "offMissing") == 0 {
			off = nOff // names no Offering
		}
		opts := []Option{Offering("shop", fmt.Sprintf("o%d", off))}
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
		case 2:
			opts = append(opts, Target("v1", "ConfigMap", ns, fmt.Sprintf("t%d", i)))
			if rapid.Bool().Draw(t, "targetExists") {
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
	snap.Now = snap.Now.Add(time.Duration(rapid.IntRange(1, 7200).Draw(t, "elapsed")) * time.Second)
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
