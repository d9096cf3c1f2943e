package e2e_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/condengine/condengine/e2e/internal/kube"
	"github.com/condengine/condengine/e2e/internal/seed"
)

// finopsBooks are two currency PriceBooks in namespace NS.
const finopsBooks = `
apiVersion: finops.stakater.com/v1alpha1
kind: PriceBook
metadata: {namespace: NS, name: standard}
spec: {currency: USD, valuationMode: currency, rates: {cpuHour: "0.031", ramGbHour: "0.004"}}
---
apiVersion: finops.stakater.com/v1alpha1
kind: PriceBook
metadata: {namespace: NS, name: discount}
spec: {currency: USD, valuationMode: currency, rates: {cpuHour: "0.021"}}
---
`

// TestKubectlGet_FinOpsColumns shows the FinOps READY and ACTIVE columns:
// empty before the operator writes, then the status fields it wrote.
func TestKubectlGet_FinOpsColumns(t *testing.T) {
	e := newEnv(t)
	ns := e.namespace("finops-columns")
	e.Kubectl(replaceNS(finopsBooks, ns)+seed.FinOpsFamily(ns, "Deactivate"), "apply", "-f", "-")

	empty := e.Table("pricebooks", "-n", ns)
	require.Equal(t, []string{"NAME", "ACTIVE", "READY", "AGE"}, empty.Header)
	if diff := cmp.Diff([][]string{{"discount", "", ""}, {"standard", "", ""}}, empty.Without("AGE")); diff != "" {
		t.Errorf("pricebooks before any status (-want +got):\n%s", diff)
	}

	ready := func(reason string) kube.Cond {
		return kube.Cond{Type: "Ready", Status: "True", Reason: reason, ObservedGeneration: 1}
	}
	write := func(gvr schema.GroupVersionResource, kind, name string, status map[string]any) {
		t.Helper()
		_, err := kube.ApplyStatus(e.Ctx, e.Dyn, gvr, kind, ns, name, "", status, "finops-operator", true)
		require.NoError(t, err)
	}
	with := func(status map[string]any, fields map[string]any) map[string]any {
		for k, v := range fields {
			status[k] = v
		}
		return status
	}
	write(kube.PriceBooks, "PriceBook", "standard", with(kube.ConditionsStatus(ready("ValidationSucceeded"),
		kube.Cond{Type: "Active", Status: "False", Reason: "Demoted", ObservedGeneration: 1}),
		map[string]any{"active": false, "ready": "True"}))
	write(kube.PriceBooks, "PriceBook", "discount", with(kube.ConditionsStatus(ready("ValidationSucceeded"),
		kube.Cond{Type: "Active", Status: "True", Reason: "Activated", ObservedGeneration: 1}),
		map[string]any{"active": true, "ready": "True"}))
	write(kube.Offerings, "Offering", "platform", with(kube.ConditionsStatus(ready("ValidationSucceeded"),
		kube.Cond{Type: "PricingResolved", Status: "True", Reason: "PricingResolved", ObservedGeneration: 1}),
		map[string]any{"ready": "True"}))
	write(kube.Subscriptions, "Subscription", "acme-platform-base", with(kube.ConditionsStatus(ready("ActivationSucceeded"),
		kube.Cond{Type: "Active", Status: "True", Reason: "ActivationSucceeded", ObservedGeneration: 1}),
		map[string]any{"ready": "True"}))
	write(kube.Subscriptions, "Subscription", "acme-platform-addon", with(kube.ConditionsStatus(
		kube.Cond{Type: "Ready", Status: "False", Reason: "ParentNotReady", ObservedGeneration: 1}),
		map[string]any{"ready": "False"}))

	checks := []struct {
		resource string
		header   []string
		rows     [][]string
	}{
		{"pricebooks", []string{"NAME", "ACTIVE", "READY", "AGE"}, [][]string{{"discount", "true", "True"}, {"standard", "false", "True"}}},
		{"offerings", []string{"NAME", "READY", "AGE"}, [][]string{{"platform", "True"}}},
		{"subscriptions", []string{"NAME", "READY", "AGE"}, [][]string{{"acme-platform-addon", "False"}, {"acme-platform-base", "True"}}},
	}
	for _, c := range checks {
		tbl := e.Table(c.resource, "-n", ns)
		require.Equal(t, c.header, tbl.Header, c.resource)
		if diff := cmp.Diff(c.rows, tbl.Without("AGE")); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.resource, diff)
		}
		ageLike(t, tbl.Column("AGE"))
	}
}

// TestFinOpsProvider_SingletonRulesHeldByTheAPIServer: the CRD's CEL rules
// refuse a provider not named default, and one with no or two option blocks,
// with the operator's documented messages.
func TestFinOpsProvider_SingletonRulesHeldByTheAPIServer(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		name, spec, want string
	}{
		{"other", "{onpremoptions: {pricingModelSource: custom}}", "FinOpsProvider must be named 'default' (singleton)."},
		{"default", "{}", "At least one provider option (awsoptions, gcpoptions, azureoptions, onpremoptions) must be set"},
		{"default", "{awsoptions: {}, gcpoptions: {}}", "Exactly one provider option (awsoptions, gcpoptions, azureoptions, onpremoptions) must be set"},
	}
	for _, c := range cases {
		manifest := "apiVersion: finops.stakater.com/v1alpha1\nkind: FinOpsProvider\nmetadata: {name: " + c.name + "}\nspec: " + c.spec + "\n"
		_, err := e.C.Kubectl(e.Ctx, manifest, "create", "-f", "-")
		require.Error(t, err, c.spec)
		require.Contains(t, err.Error(), c.want)
	}
	e.Kubectl("apiVersion: finops.stakater.com/v1alpha1\nkind: FinOpsProvider\nmetadata: {name: default}\nspec: {onpremoptions: {pricingModelSource: custom}}\n", "create", "-f", "-")
	got, err := e.Dyn.Resource(kube.FinOpsProviders).Get(e.Ctx, "default", metav1.GetOptions{})
	require.NoError(t, err)
	require.Empty(t, got.GetNamespace(), "cluster-scoped")
}

func replaceNS(manifest, ns string) string { return strings.ReplaceAll(manifest, "NS", ns) }
