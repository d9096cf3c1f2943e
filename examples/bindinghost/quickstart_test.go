package bindinghost

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/policy"
	"github.com/condengine/condengine/examples/quickstart"
)

// The README's reconciler, against the same fake API server as the host:
// it applies only the engine's own conditions, under agent-kourier, and
// another controller's condition on the Binding stays that controller's.
func TestQuickStart_AppliesOnlyTheOwnedConditions(t *testing.T) {
	var rec applies
	c := newClient(t, &rec, objects(t, world)...)
	ctx := context.Background()

	// Another controller owns a condition of its own on the Binding.
	applyOtherCondition(t, c, "example.com/Audited", "True", "Reviewed", "", "2026-11-30T09:58:00Z",
		client.FieldOwner("auditor"), client.ForceOwnership)
	before := rec.count()

	r := &quickstart.BindingReconciler{Client: c, Limits: policy.DefaultLimits(),
		Now: func() time.Time { return t0 }, Started: t0.Add(-time.Hour),
		Leader: func() bool { return true }, Probes: func() []binding.ProbeResult { return nil }}
	req := ctrl.Request{NamespacedName: types.NamespacedName{Namespace: "team-a", Name: "team-a-chat"}}
	if _, err := r.Reconcile(ctx, req); err != nil {
		t.Fatal(err)
	}
	if n := rec.count() - before; n != 1 {
		t.Fatalf("%d applies, want 1", n)
	}
	rec.mu.Lock()
	sent := rec.calls[len(rec.calls)-1]
	rec.mu.Unlock()
	list, _, _ := unstructured.NestedSlice(sent.Object, "status", "conditions")
	for _, x := range list {
		if typ, _ := x.(map[string]any)["type"].(string); !binding.Vocabulary.Has(typ) {
			t.Errorf("the apply carries %s, another controller's condition", typ)
		}
	}
	if len(list) == 0 {
		t.Fatal("the apply carries no condition")
	}
	if rv, _, _ := unstructured.NestedString(sent.Object, "metadata", "resourceVersion"); rv == "" {
		t.Error("the apply is not guarded by a resourceVersion")
	}

	got := getBinding(t, c, "team-a-chat")
	conds := conditionsOf(t, got)
	if !slices.ContainsFunc(conds, func(x metav1.Condition) bool { return x.Type == "example.com/Audited" }) {
		t.Errorf("the other controller's condition is gone: %s", summary(conds))
	}
	if s := summary(binding.Vocabulary.Owned(conds)); s != "Accepted=True/OK BackendReachable=Unknown/Pending ChannelJoined=Unknown/Pending Ready=Unknown/BackendReachable:Pending" {
		t.Errorf("our conditions: %s", s)
	}
	if m := statusManagers(got); !slices.Equal(m, []string{"agent-kourier/Apply", "auditor/Apply"}) {
		t.Errorf("status.conditions managed by %v, want agent-kourier and auditor, each with Apply", m)
	}

	// A second reconcile right away has nothing to write.
	before = rec.count()
	if _, err := r.Reconcile(ctx, req); err != nil {
		t.Fatal(err)
	}
	if n := rec.count() - before; n != 0 {
		t.Errorf("%d applies on an unchanged Binding", n)
	}
}

// The quick start takes its lease and its prober's results as inputs: a
// replica without the lease computes but writes nothing, and the leader
// settles on what the probe found, not on Pending.
func TestQuickStart_FollowsTheLeaseAndTheProbes(t *testing.T) {
	var rec applies
	c := newClient(t, &rec, objects(t, world)...)
	ctx := context.Background()
	leader := false
	r := &quickstart.BindingReconciler{Client: c, Limits: policy.DefaultLimits(),
		Now: func() time.Time { return t0 }, Started: t0.Add(-time.Hour),
		Leader: func() bool { return leader },
		Probes: func() []binding.ProbeResult { return []binding.ProbeResult{okProbe("u-chat-1", 1)} }}
	req := ctrl.Request{NamespacedName: types.NamespacedName{Namespace: "team-a", Name: "team-a-chat"}}
	if _, err := r.Reconcile(ctx, req); err != nil {
		t.Fatal(err)
	}
	if n := rec.count(); n != 0 {
		t.Fatalf("%d applies without the lease", n)
	}
	leader = true
	if _, err := r.Reconcile(ctx, req); err != nil {
		t.Fatal(err)
	}
	if s := summary(binding.Vocabulary.Owned(conditionsOf(t, getBinding(t, c, "team-a-chat")))); s != allOK {
		t.Errorf("our conditions: %s, want %s", s, allOK)
	}

	unset := &quickstart.BindingReconciler{Client: c, Limits: policy.DefaultLimits(), Now: func() time.Time { return t0 }}
	if _, err := unset.Reconcile(ctx, req); err == nil || !strings.Contains(err.Error(), "Leader") {
		t.Errorf("a reconciler without a lease function: %v", err)
	}
}
