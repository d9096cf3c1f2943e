package finopstest

import (
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
// rates, Subscription families with their Offerings and targets, a random
// requirement graph of further Offerings, failing reads; then zero to
// three reconciles applied (statuses, finalizers, the OpenCost document),
// and finally time passing with objects deleted, edited, made not ready
// and a charge collection run.
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
		return s
	})
}

// World draws a FinOps snapshot as no reconcile has seen it yet: books
// with every tier and bad rates, the Subscription package's generated
// families with their Offerings, failing reads, and a random requirement
// graph of at most graph further Offerings.
func World(t *rapid.T, graph int) finops.Snapshot {
	w := st.World(t)
	s := finops.Snapshot{Now: w.Now, PriceBooks: pb.Books(6).Draw(t, "books"),
		Offerings: append(w.Offerings, ot.Graph(graph).Draw(t, "graph")...), Subscriptions: w.Subscriptions}
	s.Objects = append(s.Objects, w.Objects...)
	for _, f := range w.Failures {
		s.Failures = append(s.Failures, finops.Failure{Kind: f.Kind, Namespace: f.Namespace, Name: f.Name})
	}
	return s
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
