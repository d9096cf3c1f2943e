package finopshost

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/yaml"

	"github.com/condengine/condengine/finops"
)

var t0 = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

const family = `
apiVersion: finops.stakater.com/v1alpha1
kind: PriceBook
metadata: {namespace: finops-operator-system, name: legacy, uid: u-legacy, generation: 1, creationTimestamp: "2026-10-01T00:00:00Z"}
spec: {currency: USD, valuationMode: currency, rates: {cpuHour: "0.034"}}
---
apiVersion: finops.stakater.com/v1alpha1
kind: PriceBook
metadata: {namespace: finops-operator-system, name: standard, uid: u-standard, generation: 1, creationTimestamp: "2026-09-01T00:00:00Z",
           annotations: {finops.stakater.com/active: "true"}}
spec: {currency: USD, valuationMode: currency, rates: {cpuHour: "0.031"}}
---
apiVersion: finops.stakater.com/v1alpha1
kind: Offering
metadata: {namespace: shop, name: platform-base, uid: u-offering, generation: 1, creationTimestamp: "2026-11-01T00:00:00Z"}
spec:
  pricing:
    subscriptionFee: {priceMicros: 40000000, period: "1h", tickAlignment: ActivatedAt}
    resourcePricing: [{name: cpuHour, margins: {factorMilli: 1200}}]
---
apiVersion: finops.stakater.com/v1alpha1
kind: Subscription
metadata: {namespace: acme, name: platform, uid: u-parent, generation: 1, creationTimestamp: "2026-11-02T00:00:00Z"}
spec:
  offeringRef: {name: platform-base, namespace: shop}
---
apiVersion: finops.stakater.com/v1alpha1
kind: Subscription
metadata: {namespace: acme, name: analytics, uid: u-child, generation: 1, creationTimestamp: "2026-11-10T00:00:00Z"}
spec:
  offeringRef: {name: platform-base, namespace: shop}
  parent: {subscriptionRef: {name: platform, namespace: acme}}
`

func newClient(t *testing.T) client.WithWatch {
	t.Helper()
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	gv := PriceBookGVK.GroupVersion()
	var withStatus []client.Object
	for _, gvk := range []schema.GroupVersionKind{PriceBookGVK, OfferingGVK, SubscriptionGVK} {
		s.AddKnownTypeWithName(gvk, &unstructured.Unstructured{})
		s.AddKnownTypeWithName(gv.WithKind(gvk.Kind+"List"), &unstructured.UnstructuredList{})
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(gvk)
		withStatus = append(withStatus, u)
	}
	metav1.AddToGroupVersion(s, gv)
	var objs []client.Object
	for _, d := range strings.Split(family, "\n---\n") {
		u := &unstructured.Unstructured{}
		if err := yaml.Unmarshal([]byte(d), &u.Object); err != nil {
			t.Fatal(err)
		}
		objs = append(objs, u)
	}
	return fake.NewClientBuilder().WithScheme(s).WithObjects(objs...).WithStatusSubresource(withStatus...).Build()
}

// settle runs passes until one changes nothing, as the operator's
// reconcilers do between them.
func settle(t *testing.T, h *Host, now time.Time) int {
	t.Helper()
	for i := 1; i <= 10; i++ {
		rep, err := h.RunOnce(context.Background(), now)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Errors) > 0 {
			t.Fatalf("pass %d: %v", i, rep.Errors)
		}
		if !rep.Changed() {
			return i
		}
	}
	t.Fatal("no fixed point in 10 passes")
	return 0
}

func get(t *testing.T, c client.Client, gvk schema.GroupVersionKind, ns, name string) *unstructured.Unstructured {
	t.Helper()
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gvk)
	if err := c.Get(context.Background(), types.NamespacedName{Namespace: ns, Name: name}, u); err != nil {
		t.Fatal(err)
	}
	return u
}

// conds is "Type=Status/Reason" per condition.
func conds(u *unstructured.Unstructured) string {
	list, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	var parts []string
	for _, x := range list {
		m := x.(map[string]any)
		parts = append(parts, m["type"].(string)+"="+m["status"].(string)+"/"+m["reason"].(string))
	}
	return strings.Join(parts, " ")
}

func TestRunOnce_FamilySettles_ThenTheParentsDeletionDeactivatesTheChild(t *testing.T) {
	c := newClient(t)
	h, err := New(c, "finops-operator-system")
	if err != nil {
		t.Fatal(err)
	}
	settle(t, h, t0)

	for _, tc := range []struct {
		gvk       schema.GroupVersionKind
		ns, name  string
		want      string
		wantField string
	}{
		{PriceBookGVK, "finops-operator-system", "standard", "Ready=True/ValidationSucceeded Active=True/Activated", "true"},
		{PriceBookGVK, "finops-operator-system", "legacy", "Ready=True/ValidationSucceeded", "false"},
		{OfferingGVK, "shop", "platform-base", "Ready=True/ValidationSucceeded PricingResolved=True/PricingResolved", ""},
		{SubscriptionGVK, "acme", "platform", "Ready=True/ActivationSucceeded Active=True/ActivationSucceeded", ""},
		{SubscriptionGVK, "acme", "analytics", "Ready=True/ActivationSucceeded Active=True/ActivationSucceeded", ""},
	} {
		u := get(t, c, tc.gvk, tc.ns, tc.name)
		if got := conds(u); got != tc.want {
			t.Errorf("%s %s: %s, want %s", tc.gvk.Kind, tc.name, got, tc.want)
		}
		if tc.wantField != "" {
			if active, _, _ := unstructured.NestedBool(u.Object, "status", "active"); (tc.wantField == "true") != active {
				t.Errorf("%s status.active %v", tc.name, active)
			}
		}
	}
	off := get(t, c, OfferingGVK, "shop", "platform-base")
	if f := off.GetFinalizers(); len(f) != 1 {
		t.Errorf("Offering finalizers %v", f)
	}
	cm := &unstructured.Unstructured{}
	cm.SetGroupVersionKind(configMapGVK)
	if err := c.Get(context.Background(), types.NamespacedName{Namespace: "finops-operator-system", Name: finops.PricingConfigMap}, cm); err != nil {
		t.Errorf("the pricing document was not written: %v", err)
	}

	// The parent is deleted (its finalizer holds it); the cascade reaches
	// the child within the next passes.
	parent := get(t, c, SubscriptionGVK, "acme", "platform")
	parent.SetFinalizers([]string{"subscriptions.finops.stakater.com/finalizer"})
	if err := c.Update(context.Background(), parent); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete(context.Background(), parent); err != nil {
		t.Fatal(err)
	}
	settle(t, h, t0.Add(time.Hour))
	if got := conds(get(t, c, SubscriptionGVK, "acme", "platform")); !strings.Contains(got, "Active=False/MarkedForDeletion") ||
		!strings.Contains(got, "Deleting=False/WaitingForCollectionJob") {
		t.Errorf("parent: %s", got)
	}
	if got := conds(get(t, c, SubscriptionGVK, "acme", "analytics")); got != "Ready=False/ValidationSucceeded Active=False/ParentDeactivated" {
		t.Errorf("child: %s", got)
	}
}

func TestNew_Validates(t *testing.T) {
	if _, err := New(nil, "ns"); err == nil {
		t.Error("nil client accepted")
	}
	if _, err := New(newClient(t), ""); err == nil {
		t.Error("empty namespace accepted")
	}
	h, _ := New(newClient(t), "ns")
	if !h.NeedLeaderElection() {
		t.Error("must run only on the leader")
	}
}
