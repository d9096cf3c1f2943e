package compat_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	finv1 "github.com/condengine/condengine/api/finops/v1alpha1"
)

// newScheme registers both groups, as a host's main does.
func newScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	if err := akv1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	if err := finv1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return s
}

var (
	at   = metav1.NewTime(time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC))
	cond = metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "OK", ObservedGeneration: 1, LastTransitionTime: at}
)

// kindCase is one kind: a full object and an empty List to read it back.
type kindCase struct {
	kind string
	obj  client.Object
	list client.ObjectList
	// items returns the List's objects.
	items func(client.ObjectList) []client.Object
}

func itemsOf[T any, P interface {
	*T
	client.Object
}](items []T) []client.Object {
	out := make([]client.Object, len(items))
	for i := range items {
		out[i] = P(&items[i])
	}
	return out
}

func meta(name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: name, Namespace: "team-a", Labels: map[string]string{"app": "compat"}}
}

// cases fills every field group of every kind, status included.
func cases() []kindCase {
	return []kindCase{
		{akv1.KindBinding, &akv1.Binding{ObjectMeta: meta("b"),
			Spec: akv1.BindingSpec{Agent: akv1.AgentRef{BackendRef: akv1.Ref{Name: "echo"}},
				Chat: akv1.ChatRef{ConnectionRef: akv1.Ref{Name: "slack", Namespace: "team-b"}, Channel: "C1"}},
			Status: akv1.BindingStatus{Conditions: []metav1.Condition{cond}}},
			&akv1.BindingList{}, func(l client.ObjectList) []client.Object { return itemsOf(l.(*akv1.BindingList).Items) }},
		{akv1.KindAgentBackend, &akv1.AgentBackend{ObjectMeta: meta("echo"),
			Spec: akv1.AgentBackendSpec{URL: "https://echo", CardPath: akv1.DefaultCardPath,
				AuthSecretRef: &akv1.SecretKeyRef{Name: "s", Key: "k"}, AllowedNamespaces: []string{"team-b"}},
			Status: akv1.AgentBackendStatus{Conditions: []metav1.Condition{cond}}},
			&akv1.AgentBackendList{}, func(l client.ObjectList) []client.Object { return itemsOf(l.(*akv1.AgentBackendList).Items) }},
		{akv1.KindChatConnection, &akv1.ChatConnection{ObjectMeta: meta("slack"),
			Spec: akv1.ChatConnectionSpec{Platform: akv1.PlatformSlack, TokenSecretRef: &akv1.SecretKeyRef{Name: "t", Key: "token"},
				Broker: "b1", AllowedNamespaces: []string{"*"}},
			Status: akv1.ChatConnectionStatus{Conditions: []metav1.Condition{cond}}},
			&akv1.ChatConnectionList{}, func(l client.ObjectList) []client.Object { return itemsOf(l.(*akv1.ChatConnectionList).Items) }},
		{finv1.KindPriceBook, &finv1.PriceBook{ObjectMeta: meta("book"),
			Spec: finv1.PriceBookSpec{Currency: "EUR", ValuationMode: finv1.ValuationCurrency, Rates: &finv1.Rates{CPUHour: "0.031", NetworkGiB: "0.01"}},
			Status: finv1.PriceBookStatus{Active: true, Ready: metav1.ConditionTrue, Conditions: []metav1.Condition{cond},
				ActivePricing: map[string]string{"CPU": "0.031"}}},
			&finv1.PriceBookList{}, func(l client.ObjectList) []client.Object { return itemsOf(l.(*finv1.PriceBookList).Items) }},
		{finv1.KindOffering, &finv1.Offering{ObjectMeta: meta("gold"),
			Spec: finv1.OfferingSpec{
				Pricing: finv1.Pricing{
					SubscriptionFee: &finv1.SubscriptionFee{PriceMicros: 40_000_000, Period: "1h", TickAlignment: finv1.AlignActivatedAt, MinPeriods: ptr.To[int64](2)},
					ResourcePricing: []finv1.ResourcePricing{{Name: finv1.MeterCPUHour, Margins: &finv1.Margins{FactorMilli: ptr.To[int64](1100)}}},
				},
				Compatibility: &finv1.Compatibility{RequiredOfferings: []finv1.Reference{{Name: "base", Namespace: "catalog"}}},
				Lifecycle:     &finv1.OfferingLifecycle{OnParentDeactivate: finv1.PolicyOrphan, AllowOverride: true},
			},
			Status: finv1.OfferingStatus{Ready: metav1.ConditionTrue, Conditions: []metav1.Condition{cond},
				ResolvedPricing: &finv1.ResolvedPricing{ResolvedAt: at, Meters: []finv1.ResolvedMeter{{Name: finv1.MeterCPUHour, UnitPriceMicros: 34_100}}}}},
			&finv1.OfferingList{}, func(l client.ObjectList) []client.Object { return itemsOf(l.(*finv1.OfferingList).Items) }},
		{finv1.KindSubscription, &finv1.Subscription{ObjectMeta: meta("sub"),
			Spec: finv1.SubscriptionSpec{OfferingRef: finv1.Reference{Name: "gold", Namespace: "team-a"},
				Parent:       &finv1.Parent{SubscriptionRef: finv1.Reference{Name: "root", Namespace: "team-a"}},
				UsageSources: []finv1.UsageSource{{ResourceType: "Deployment", Name: "web", Namespace: "team-a"}},
				Lifecycle: &finv1.SubscriptionLifecycle{OnParentDeactivate: finv1.PolicyDeactivate,
					TargetRef: &finv1.TargetRef{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", Namespace: "team-a"}}},
			Status: finv1.SubscriptionStatus{Ready: metav1.ConditionTrue, Conditions: []metav1.Condition{cond},
				ActivatedAt: &at, CompatibilityRoot: "u-root",
				Costs: []finv1.CostBucket{{Granularity: finv1.GranularityHour, Start: at, EndExclusive: at, Current: 5, Projected: 7,
					Breakdown: []finv1.CostMetric{{Name: finv1.MeterSubscription, Current: 5, Projected: 7}}}}}},
			&finv1.SubscriptionList{}, func(l client.ObjectList) []client.Object { return itemsOf(l.(*finv1.SubscriptionList).Items) }},
		{finv1.KindCostJob, &finv1.CostJob{ObjectMeta: meta("collect"),
			Spec: finv1.CostJobSpec{Type: finv1.ResourceCostCollection, Interval: "1h", Resources: []byte(`{"limits":{"cpu":"1"}}`),
				Sharding: &finv1.Sharding{NamespacesPerShard: 10, Concurrency: 2}},
			Status: finv1.CostJobStatus{LastExecutionTime: &at, LastExecutionStatus: finv1.Success,
				ExecutionHistory: []finv1.ExecutionRecord{{ExecutionTime: at, Status: finv1.Success, Duration: "3s"}}}},
			&finv1.CostJobList{}, func(l client.ObjectList) []client.Object { return itemsOf(l.(*finv1.CostJobList).Items) }},
		{finv1.KindFinOpsProvider, &finv1.FinOpsProvider{ObjectMeta: metav1.ObjectMeta{Name: finv1.SingletonName, Labels: map[string]string{"app": "compat"}},
			Spec: finv1.FinOpsProviderSpec{OnPremOptions: &finv1.OnPremOptions{PricingModelSource: finv1.PricingModelPricebook}}},
			&finv1.FinOpsProviderList{}, func(l client.ObjectList) []client.Object { return itemsOf(l.(*finv1.FinOpsProviderList).Items) }},
	}
}

// ignoreServerSet leaves out what the client, not the test, decides.
var ignoreServerSet = cmpopts.IgnoreFields(metav1.ObjectMeta{}, "ResourceVersion")

// Every kind of both groups goes through controller-runtime's fake
// client unchanged: create, get, list, and a deep copy equal to the
// original that shares no memory with it.
func TestFakeClient_EveryKindRoundTrips(t *testing.T) {
	scheme := newScheme(t)
	ctx := context.Background()
	for _, tc := range cases() {
		t.Run(tc.kind, func(t *testing.T) {
			gvks, _, err := scheme.ObjectKinds(tc.obj)
			if err != nil || len(gvks) != 1 || gvks[0].Kind != tc.kind {
				t.Fatalf("scheme kinds %v, %v", gvks, err)
			}
			c := fake.NewClientBuilder().WithScheme(scheme).Build()
			want := tc.obj.DeepCopyObject().(client.Object)
			if err := c.Create(ctx, tc.obj); err != nil {
				t.Fatal(err)
			}
			got := tc.obj.DeepCopyObject().(client.Object)
			if err := c.Get(ctx, client.ObjectKeyFromObject(tc.obj), got); err != nil {
				t.Fatal(err)
			}
			got.GetObjectKind().SetGroupVersionKind(want.GetObjectKind().GroupVersionKind())
			if d := cmp.Diff(want, got, ignoreServerSet); d != "" {
				t.Errorf("get (-created +read):\n%s", d)
			}
			if err := c.List(ctx, tc.list); err != nil {
				t.Fatal(err)
			}
			items := tc.items(tc.list)
			if len(items) != 1 {
				t.Fatalf("list has %d items", len(items))
			}
			items[0].GetObjectKind().SetGroupVersionKind(want.GetObjectKind().GroupVersionKind())
			if d := cmp.Diff(want, items[0], ignoreServerSet); d != "" {
				t.Errorf("list (-created +read):\n%s", d)
			}
			copied := got.DeepCopyObject().(client.Object)
			if d := cmp.Diff(got, copied); d != "" {
				t.Errorf("deepcopy differs:\n%s", d)
			}
			copied.SetLabels(map[string]string{"app": "changed"})
			if got.GetLabels()["app"] != "compat" {
				t.Error("the deep copy shares its labels with the original")
			}
			key := types.NamespacedName{Namespace: tc.obj.GetNamespace(), Name: tc.obj.GetName()}
			if client.ObjectKeyFromObject(got) != key {
				t.Errorf("key %v", client.ObjectKeyFromObject(got))
			}
		})
	}
}
