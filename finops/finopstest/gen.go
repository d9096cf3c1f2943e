package finopstest

import (
	"slices"
	"strconv"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/finops"
	ot "github.com/condengine/condengine/offering/offeringtest"
	pb "github.com/condengine/condengine/pricebook/pricebooktest"
	"github.com/condengine/condengine/subscription"
	st "github.com/condengine/condengine/subscription/subscriptiontest"
)

// SnapshotGen draws a FinOps snapshot: books with every tier and bad
// rates (some being deleted), Subscription families with their Offerings
// (fees of every tick alignment and period form) and targets, a random
// requirement graph of further Offerings, failing reads, all around a now
// in any month (Feb 29 and Dec 31 included), names at their limits; then
// zero to three reconciles applied (statuses, finalizers, the OpenCost
// document), time passing with objects deleted, edited, made not ready
// and a charge collection run, and half the time one more reconcile and
// a later collection run, which releases the finalizers of the
// Subscriptions deleted meanwhile.
func SnapshotGen() *rapid.Generator[finops.Snapshot] {
	return rapid.Custom(func(t *rapid.T) finops.Snapshot {
		s := World(t, 6)
		for range rapid.IntRange(0, 3).Draw(t, "reconciles") {
			r, err := finops.Evaluate(s)
			if err != nil {
				t.Fatalf("a generated snapshot is refused: %v", err)
			}
			s = finops.Apply(s, r)
		}
		if rapid.Bool().Draw(t, "disturb") {
			s = disturb(t, s)
		}
		if rapid.Bool().Draw(t, "later") {
			s = later(t, s)
		}
		return s
	})
}

// later carries out a reconcile of s and lets time pass (seconds to
// months), ending with a charge collection run at the new now that lists
// most Subscriptions: Subscriptions deleted before it have their
// deactivation stamped, so the run may release their finalizers, and
// the buckets it writes fall in whatever month now has come to.
func later(t *rapid.T, s finops.Snapshot) finops.Snapshot {
	// Some active Subscriptions are deleted now, so that the reconcile
	// stamps their deactivation before the run.
	s.Subscriptions = slices.Clone(s.Subscriptions)
	for i := range s.Subscriptions {
		sub := &s.Subscriptions[i]
		if sub.Status.ActivatedAt != nil && sub.DeletionTimestamp == nil && rapid.IntRange(0, 2).Draw(t, "laterDeleted") == 0 {
			at := metav1.NewTime(s.Now)
			sub.DeletionTimestamp, sub.Finalizers = &at, []string{finopsv1.SubscriptionFinalizer}
		}
	}
	r, err := finops.Evaluate(s)
	if err != nil {
		t.Fatalf("a generated snapshot is refused: %v", err)
	}
	s = finops.Apply(s, r)
	s.Now = s.Now.Add(st.Elapsed().Draw(t, "laterElapsed"))
	c := &subscription.Collection{ScheduledHour: s.Now.Truncate(time.Hour)}
	for _, sub := range s.Subscriptions {
		if rapid.IntRange(0, 3).Draw(t, "laterListed") != 0 {
			c.Results = append(c.Results, subscription.CollectionResult{Subscription: sub.Key(),
				Buckets: rapid.IntRange(0, 3).Draw(t, "laterBuckets"),
				Source:  rapid.SampledFrom([]subscription.Source{subscription.SourceDB, subscription.SourceDB, subscription.SourceCalculator, subscription.SourceError}).Draw(t, "laterSource")})
		}
	}
	s.Collection = c
	return s
}

// World draws a FinOps snapshot as no reconcile has seen it yet: books
// with every tier and bad rates, the Subscription package's generated
// families with their Offerings, failing reads, and a random requirement
// graph of at most graph further Offerings.
func World(t *rapid.T, graph int) finops.Snapshot {
	w := st.World(t)
	// The books and the graph are built around the builders' epoch; they
	// move with the world's now, whole seconds at a time.
	shift := w.Now.Truncate(time.Second).Sub(st.GenNow())
	books := pb.Books(6).Draw(t, "books")
	for i := range books {
		moveMeta(&books[i].ObjectMeta, shift)
		if rapid.IntRange(0, 7).Draw(t, "bookDeleting") == 0 {
			// A book being deleted, held by someone else's finalizer.
			at := metav1.NewTime(w.Now.Truncate(time.Second).Add(-time.Duration(rapid.IntRange(0, 120).Draw(t, "bookDeletedAgo")) * time.Minute))
			books[i].DeletionTimestamp, books[i].Finalizers = &at, []string{"example.com/keep"}
		}
	}
	offs := ot.Graph(graph).Draw(t, "graph")
	for i := range offs {
		moveMeta(&offs[i].ObjectMeta, shift)
	}
	s := finops.Snapshot{Now: w.Now, PriceBooks: books,
		Offerings: append(w.Offerings, offs...), Subscriptions: w.Subscriptions}
	s.Objects = append(s.Objects, w.Objects...)
	for _, f := range w.Failures {
		s.Failures = append(s.Failures, finops.Failure{Kind: f.Kind, Namespace: f.Namespace, Name: f.Name})
	}
	return s
}

// moveMeta moves an object's creation and deletion instants by d.
func moveMeta(m *metav1.ObjectMeta, d time.Duration) {
	if !m.CreationTimestamp.IsZero() {
		m.CreationTimestamp = metav1.NewTime(m.CreationTimestamp.Add(d))
	}
	if m.DeletionTimestamp != nil {
		at := metav1.NewTime(m.DeletionTimestamp.Add(d))
		m.DeletionTimestamp = &at
	}
}

// disturb runs subscriptiontest.Disturb on the parts of s it knows.
func disturb(t *rapid.T, s finops.Snapshot) finops.Snapshot {
	in := subscription.Snapshot{Now: s.Now, Subscriptions: s.Subscriptions, Offerings: s.Offerings}
	in.Objects = append(in.Objects, s.Objects...)
	for _, f := range s.Failures {
		in.Failures = append(in.Failures, subscription.ObjectRef{APIVersion: f.APIVersion, Kind: f.Kind, Namespace: f.Namespace, Name: f.Name})
	}
	out := st.Disturb(t, in)
	s.Now, s.Subscriptions, s.Collection = out.Now, out.Subscriptions, out.Collection
	s.Offerings = append([]finopsv1.Offering(nil), out.Offerings...)
	s.Objects, s.Failures = append([]finops.ObjectRef(nil), out.Objects...), nil
	for _, f := range out.Failures {
		s.Failures = append(s.Failures, finops.Failure{APIVersion: f.APIVersion, Kind: f.Kind, Namespace: f.Namespace, Name: f.Name})
	}
	return s
}

// The intervals a drawn CostJob names: known ones, other spellings of
// them, and ones the operator runs daily instead (unknown, not parsing,
// zero).
var costJobIntervals = []string{"", "1h", "60m", "24h", "168h", "90m", "not-a-duration", "0s"}

// CostJobs draws up to n CostJobs in the namespaces the worlds use: both
// job types (and the default), good and bad intervals, and on some the
// execution history their runs recorded, newest first. CostJobs carry
// no conditions and the reconciler writes none of their status.
func CostJobs(n int) *rapid.Generator[[]finopsv1.CostJob] {
	return upTo(n, "costjobs", "job", "cj", func(t *rapid.T, meta metav1.ObjectMeta, now time.Time) finopsv1.CostJob {
		j := finopsv1.CostJob{ObjectMeta: meta}
		j.Namespace = rapid.SampledFrom([]string{"finops-system", "team-a"}).Draw(t, "costjob-ns")
		j.Spec.Type = rapid.SampledFrom([]finopsv1.JobType{"", finopsv1.ResourceCostCollection, finopsv1.SubscriptionChargeCollection}).Draw(t, "costjob-type")
		j.Spec.Interval = rapid.SampledFrom(costJobIntervals).Draw(t, "costjob-interval")
		for k := range rapid.IntRange(0, 3).Draw(t, "costjob-runs") {
			r := finopsv1.ExecutionRecord{ExecutionTime: metav1.NewTime(now.Add(-time.Duration(k+1) * time.Hour)), Status: finopsv1.Success, Duration: "42s"}
			if rapid.Bool().Draw(t, "costjob-failed") {
				r.Status, r.Error = finopsv1.Failed, "opencost fetch timed out"
			}
			j.Status.ExecutionHistory = append(j.Status.ExecutionHistory, r)
		}
		if h := j.Status.ExecutionHistory; len(h) > 0 {
			j.Status.LastExecutionTime, j.Status.LastExecutionStatus = &h[0].ExecutionTime, h[0].Status
			for k := range h {
				if h[k].Status == finopsv1.Success {
					j.Status.LastSuccessfulExecutionTime = &h[k].ExecutionTime
					break
				}
			}
		}
		return j
	})
}

// Providers draws up to n FinOpsProviders, each with one provider block
// (cloud ones with or without the pricebook pricing source). Their
// status is declared and never written.
func Providers(n int) *rapid.Generator[[]finopsv1.FinOpsProvider] {
	return upTo(n, "providers", "provider", "fp", func(t *rapid.T, meta metav1.ObjectMeta, _ time.Time) finopsv1.FinOpsProvider {
		p := finopsv1.FinOpsProvider{ObjectMeta: meta}
		cloud := &finopsv1.CloudOptions{CloudIntegrationSecret: "cloud-integration"}
		if rapid.Bool().Draw(t, "provider-pricebook") {
			cloud.PricingModelSource = finopsv1.PricingModelPricebook
		}
		switch rapid.IntRange(0, 3).Draw(t, "provider-kind") {
		case 0:
			p.Spec.AWSOptions = cloud
		case 1:
			p.Spec.GCPOptions = cloud
		case 2:
			p.Spec.AzureOptions = cloud
		default:
			p.Spec.OnPremOptions = &finopsv1.OnPremOptions{}
		}
		return p
	})
}

// upTo draws up to n objects (the count drawn as label), the i-th made by
// one from its metadata: in finops-system, named name-i with uid uid-i,
// generation 1, created two days before the drawn now.
func upTo[T any](n int, label, name, uid string, one func(t *rapid.T, meta metav1.ObjectMeta, now time.Time) T) *rapid.Generator[[]T] {
	return rapid.Custom(func(t *rapid.T) []T {
		now := st.GenNow()
		count := rapid.IntRange(0, n).Draw(t, label)
		out := make([]T, 0, count)
		for i := range count {
			meta := metav1.ObjectMeta{Namespace: "finops-system", Name: name + "-" + strconv.Itoa(i),
				UID: types.UID(uid + "-" + strconv.Itoa(i)), Generation: 1, CreationTimestamp: metav1.NewTime(now.Add(-48 * time.Hour))}
			out = append(out, one(t, meta, now))
		}
		return out
	})
}
