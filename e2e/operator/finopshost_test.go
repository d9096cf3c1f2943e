package operator_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/condengine/condengine/e2e/internal/kube"
	"github.com/condengine/condengine/e2e/internal/seed"
	"github.com/condengine/condengine/examples/finopshost"
)

const operatorNS = "finops-operator-system"

// finopsFamily is the namespace ns and, in it, the seed's FinOps family
// with the child's parent-loss policy.
func finopsFamily(ns, policy string) string {
	return "apiVersion: v1\nkind: Namespace\nmetadata: {name: " + ns + "}\n---\n" + seed.FinOpsFamily(ns, policy)
}

// settle runs passes of h until one changes nothing, as the operator's
// reconciles would, one level of a family per pass.
func (e *env) settle(h *finopshost.Host, now time.Time) {
	e.T.Helper()
	for pass := range 12 {
		rep, err := h.RunOnce(e.Ctx, now.Add(time.Duration(pass)*time.Second))
		require.NoError(e.T, err)
		require.Empty(e.T, rep.Errors)
		if !rep.Changed() {
			return
		}
	}
	e.T.Fatal("the FinOps objects did not settle in 12 passes")
}

// conditionOf returns "Status Reason" of one condition of a Subscription.
func (e *env) conditionOf(ns, name, typ string) string {
	e.T.Helper()
	obj, err := e.Dyn.Resource(kube.Subscriptions).Namespace(ns).Get(e.Ctx, name, metav1.GetOptions{})
	require.NoError(e.T, err)
	conds, _, _ := unstructured.NestedSlice(obj.Object, "status", "conditions")
	for _, c := range conds {
		m := c.(map[string]any)
		if m["type"] == typ {
			return m["status"].(string) + " " + m["reason"].(string)
		}
	}
	return ""
}

// TestFinOpsHost_ElectionOfferingAndFamiliesAsKubectlShowsThem runs the
// example FinOps host on the real server: a PriceBook election (the newest
// book wins when none is annotated or already active), an Offering, and two
// parent and child families; then each parent is deleted, under each
// parent-loss policy, and kubectl shows what became of the child.
func TestFinOpsHost_ElectionOfferingAndFamiliesAsKubectlShowsThem(t *testing.T) {
	e := newEnv(t)
	e.Kubectl(`
apiVersion: v1
kind: Namespace
metadata: {name: `+operatorNS+`}
---
apiVersion: finops.stakater.com/v1alpha1
kind: PriceBook
metadata: {namespace: `+operatorNS+`, name: standard}
spec: {currency: USD, valuationMode: currency, rates: {cpuHour: "0.031", ramGbHour: "0.004"}}
`, "apply", "-f", "-")
	time.Sleep(time.Second) // a newer book, by whole-second creation time
	e.Kubectl(`
apiVersion: finops.stakater.com/v1alpha1
kind: PriceBook
metadata: {namespace: `+operatorNS+`, name: discount}
spec: {currency: USD, valuationMode: currency, rates: {cpuHour: "0.021"}}
`, "apply", "-f", "-")
	e.Kubectl(finopsFamily("fam-deactivate", "Deactivate"), "apply", "-f", "-")
	e.Kubectl(finopsFamily("fam-orphan", "Orphan"), "apply", "-f", "-")

	h, err := finopshost.New(e.cl, operatorNS)
	require.NoError(t, err)
	t0 := time.Now()
	e.settle(h, t0)

	books := e.Table("pricebooks", "-n", operatorNS)
	if diff := cmp.Diff([][]string{{"discount", "true", "True"}, {"standard", "false", "True"}}, books.Without("AGE")); diff != "" {
		t.Errorf("kubectl get pricebooks (-want +got):\n%s", diff)
	}
	for _, ns := range []string{"fam-deactivate", "fam-orphan"} {
		require.Equal(t, [][]string{{"platform", "True"}}, e.Table("offerings", "-n", ns).Without("AGE"), ns)
		if diff := cmp.Diff([][]string{{"acme-platform-addon", "True"}, {"acme-platform-base", "True"}},
			e.Table("subscriptions", "-n", ns).Without("AGE")); diff != "" {
			t.Errorf("%s: kubectl get subscriptions before the parent goes (-want +got):\n%s", ns, diff)
		}
	}
	// The elected book's document reached the OpenCost pricing ConfigMap.
	cm := e.Kubectl("", "get", "configmap", "-n", operatorNS, "-o", "jsonpath={.items[*].metadata.name}")
	require.NotEmpty(t, strings.TrimSpace(cm))

	for _, ns := range []string{"fam-deactivate", "fam-orphan"} {
		e.Kubectl("", "delete", "subscription", "acme-platform-base", "-n", ns, "--wait=false")
	}
	e.settle(h, t0.Add(time.Minute))

	require.Equal(t, "False", e.subscriptionReady("fam-deactivate", "acme-platform-addon"))
	require.Equal(t, "False ParentDeactivated", e.conditionOf("fam-deactivate", "acme-platform-addon", "Active"))
	require.Equal(t, "True", e.subscriptionReady("fam-orphan", "acme-platform-addon"))
	require.Equal(t, "True Orphaned", e.conditionOf("fam-orphan", "acme-platform-addon", "Active"))
	require.Equal(t, "True Orphaned", e.conditionOf("fam-orphan", "acme-platform-addon", "Ready"))
}

// subscriptionReady is the READY cell kubectl prints for one Subscription.
func (e *env) subscriptionReady(ns, name string) string {
	e.T.Helper()
	tbl := e.Table("subscriptions", name, "-n", ns)
	require.Len(e.T, tbl.Rows, 1)
	return tbl.Column("READY")[0]
}
