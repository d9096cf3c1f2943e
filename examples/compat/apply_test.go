package compat_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/config/crd"
)

// FieldManager is the field manager the Agent Kourier broker applies
// status under.
const FieldManager = "agent-kourier"

// conditionOwners maps each condition type under status.conditions to
// the managers (manager/operation) whose managedFields entry names it.
func conditionOwners(t *testing.T, obj client.Object) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, m := range obj.GetManagedFields() {
		if m.FieldsV1 == nil {
			continue
		}
		var fields map[string]any
		if err := json.Unmarshal(m.FieldsV1.GetRawBytes(), &fields); err != nil {
			t.Fatal(err)
		}
		status, _ := fields["f:status"].(map[string]any)
		conds, _ := status["f:conditions"].(map[string]any)
		for key := range conds {
			var k struct{ Type string }
			if strings.HasPrefix(key, "k:") && json.Unmarshal([]byte(key[2:]), &k) == nil {
				out[k.Type] = append(out[k.Type], m.Manager+"/"+string(m.Operation))
			}
		}
	}
	return out
}

// applyConditions applies conds to the Binding's status subresource
// under manager, guarded by the resourceVersion the caller read.
func applyConditions(ctx context.Context, c client.Client, b *akv1.Binding, manager string, conds []metav1.Condition) error {
	list := make([]any, 0, len(conds))
	for _, cd := range conds {
		list = append(list, map[string]any{
			"type": cd.Type, "status": string(cd.Status), "reason": cd.Reason, "message": cd.Message,
			"observedGeneration": cd.ObservedGeneration, "lastTransitionTime": cd.LastTransitionTime.UTC().Format(time.RFC3339),
		})
	}
	u := &unstructured.Unstructured{Object: map[string]any{"status": map[string]any{"conditions": list}}}
	u.SetGroupVersionKind(akv1.GroupVersion.WithKind(akv1.KindBinding))
	u.SetNamespace(b.Namespace)
	u.SetName(b.Name)
	u.SetResourceVersion(b.ResourceVersion)
	return c.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner(manager), client.ForceOwnership)
}

// evaluate reads the three kinds back through the client and runs the
// engine, with finished probes that found the agent and the channel well.
func evaluate(ctx context.Context, t *testing.T, c client.Client, now time.Time) binding.Result {
	t.Helper()
	var bs akv1.BindingList
	var abs akv1.AgentBackendList
	var ccs akv1.ChatConnectionList
	for _, l := range []client.ObjectList{&bs, &abs, &ccs} {
		if err := c.List(ctx, l); err != nil {
			t.Fatal(err)
		}
	}
	snap := binding.Snapshot{Now: now,
		Broker:   binding.Broker{Leader: true, StartedAt: now.Add(-time.Hour), ProberListed: true},
		Bindings: bs.Items, Backends: abs.Items, Connections: ccs.Items}
	for _, b := range bs.Items {
		snap.Probes = append(snap.Probes, binding.ProbeResult{UID: b.UID, Generation: b.Generation,
			Backend: &binding.BackendObservation{HTTPStatus: 200,
				Body: []byte(`{"name":"echo","version":"1.0","supportedInterfaces":[{"url":"https://echo/a2a","protocolBinding":"JSONRPC"}]}`)},
			Channel: &binding.ChannelObservation{OK: true, IsMember: true}})
	}
	r, err := binding.Evaluate(snap)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The broker applies status with server-side apply under agent-kourier,
// carrying only its own condition types. Another controller's condition
// on the same Binding, applied under its own manager, stays on the object
// and stays owned by that manager, through the broker's first apply and a
// later one.
func TestServerSideApply_OtherControllersConditionStaysTheirs(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	created := metav1.NewTime(now.Add(-2 * time.Hour))
	objs := []client.Object{
		&akv1.AgentBackend{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "echo", UID: "u-echo", Generation: 1, CreationTimestamp: created},
			Spec: akv1.AgentBackendSpec{URL: "https://echo"}},
		&akv1.ChatConnection{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "slack", UID: "u-slack", Generation: 1, CreationTimestamp: created},
			Spec: akv1.ChatConnectionSpec{Platform: akv1.PlatformSlack, TokenSecretRef: &akv1.SecretKeyRef{Name: "t", Key: "token"}}},
		&akv1.Binding{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "chat", UID: "u-chat", Generation: 1, CreationTimestamp: created},
			Spec: akv1.BindingSpec{Agent: akv1.AgentRef{BackendRef: akv1.Ref{Name: "echo"}},
				Chat: akv1.ChatRef{ConnectionRef: akv1.Ref{Name: "slack"}, Channel: "C1"}}},
	}
	c := fake.NewClientBuilder().
		WithScheme(newScheme(t)).
		WithObjects(objs...).
		WithStatusSubresource(&akv1.Binding{}, &akv1.AgentBackend{}, &akv1.ChatConnection{}).
		WithReturnManagedFields().
		WithTypeConverters(crdConverter(t), managedfields.NewDeducedTypeConverter()).
		Build()
	key := types.NamespacedName{Namespace: "team-a", Name: "chat"}
	get := func() *akv1.Binding {
		t.Helper()
		var b akv1.Binding
		if err := c.Get(ctx, key, &b); err != nil {
			t.Fatal(err)
		}
		return &b
	}

	audited := metav1.Condition{Type: "example.com/Audited", Status: metav1.ConditionTrue, Reason: "Checked",
		ObservedGeneration: 1, LastTransitionTime: metav1.NewTime(now.Add(-time.Hour))}
	if err := applyConditions(ctx, c, get(), "auditor", []metav1.Condition{audited}); err != nil {
		t.Fatal(err)
	}

	for round, at := range []time.Time{now, now.Add(time.Minute)} {
		res := evaluate(ctx, t, c, at)
		if len(res.Bindings) != 1 {
			t.Fatalf("round %d: %d results", round, len(res.Bindings))
		}
		b := get()
		// The engine's merged list may carry the auditor's condition; the
		// apply must not.
		mine := res.Bindings[0].Owned
		if len(mine) != 4 {
			t.Fatalf("round %d: owned conditions %v", round, mine)
		}
		if err := applyConditions(ctx, c, b, FieldManager, mine); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		got := get()
		var types []string
		for _, cd := range got.Status.Conditions {
			types = append(types, cd.Type+"="+string(cd.Status))
		}
		want := []string{"example.com/Audited=True", "Accepted=True", "BackendReachable=True", "ChannelJoined=True", "Ready=True"}
		if !slices.Equal(types, want) {
			t.Errorf("round %d: conditions %v, want %v", round, types, want)
		}
		owners := conditionOwners(t, got)
		if o := owners[audited.Type]; !slices.Equal(o, []string{"auditor/Apply"}) {
			t.Errorf("round %d: %s owned by %v, want only auditor", round, audited.Type, o)
		}
		for _, typ := range []string{"Accepted", "BackendReachable", "ChannelJoined", "Ready"} {
			if o := owners[typ]; !slices.Equal(o, []string{FieldManager + "/Apply"}) {
				t.Errorf("round %d: %s owned by %v, want only %s", round, typ, o, FieldManager)
			}
		}
	}

	// A write guarded by a resourceVersion that has moved on is refused.
	stale := get()
	stale.ResourceVersion = "1"
	if err := applyConditions(ctx, c, stale, FieldManager, evaluate(ctx, t, c, now).Bindings[0].Owned); err == nil {
		t.Error("an apply with a stale resourceVersion was accepted")
	}
}

// crdConverter is the module's converter for our kinds: it makes
// status.conditions a list keyed by type, so each condition has its own
// owner in the fake client's managedFields.
func crdConverter(t *testing.T) managedfields.TypeConverter {
	t.Helper()
	tc, err := crd.TypeConverter()
	if err != nil {
		t.Fatal(err)
	}
	return tc
}
