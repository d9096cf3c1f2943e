package bindinghost

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/record"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/yaml"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/policy"
	"github.com/condengine/condengine/examples/ctrlplan"
)

var t0 = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

const world = `
apiVersion: agentkourier.dev/v1alpha1
kind: ChatConnection
metadata: {namespace: team-a, name: slack, uid: u-slack, generation: 1, creationTimestamp: "2026-11-30T08:00:00Z"}
spec: {platform: slack, tokenSecretRef: {name: slack-bot-token, key: token}}
---
apiVersion: agentkourier.dev/v1alpha1
kind: AgentBackend
metadata: {namespace: team-a, name: echo, uid: u-echo, generation: 1, creationTimestamp: "2026-11-30T08:00:00Z"}
spec: {url: "https://echo.team-a.svc"}
---
apiVersion: agentkourier.dev/v1alpha1
kind: Binding
metadata: {namespace: team-a, name: team-a-chat, uid: u-chat-1, generation: 1, creationTimestamp: "2026-11-30T09:56:00Z"}
spec:
  agent: {backendRef: {name: echo}}
  chat: {connectionRef: {name: slack}, channel: C2}
`

func objects(t testing.TB, docs string) []client.Object {
	t.Helper()
	var out []client.Object
	for _, d := range strings.Split(docs, "\n---\n") {
		u := &unstructured.Unstructured{}
		if err := yaml.Unmarshal([]byte(d), &u.Object); err != nil {
			t.Fatal(err)
		}
		out = append(out, u)
	}
	return out
}

func newScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	if err := akv1.AddToScheme(s); err != nil {
		panic(err)
	}
	return s
}

// applies records every status apply the host makes.
type applies struct {
	mu    sync.Mutex
	calls []*unstructured.Unstructured
}

func (a *applies) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.calls)
}

func newClient(t testing.TB, rec *applies, objs ...client.Object) client.WithWatch {
	t.Helper()
	return ctrlplan.NewFakeClientBuilder().
		WithObjects(objs...).
		WithInterceptorFuncs(interceptor.Funcs{
			SubResourceApply: func(ctx context.Context, c client.Client, sub string, obj runtime.ApplyConfiguration, opts ...client.SubResourceApplyOption) error {
				data, err := yaml.Marshal(obj)
				if err != nil {
					return err
				}
				if err := rec.record(data); err != nil {
					return err
				}
				return c.SubResource(sub).Apply(ctx, obj, opts...)
			},
			// ctrlplan sends a plan's apply as it is, a PATCH of the
			// apply type.
			SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
				if patch.Type() == types.ApplyPatchType {
					data, err := patch.Data(obj)
					if err != nil {
						return err
					}
					if err := rec.record(data); err != nil {
						return err
					}
				}
				return c.SubResource(sub).Patch(ctx, obj, patch, opts...)
			},
		}).
		Build()
}

// record keeps one apply body.
func (a *applies) record(body []byte) error {
	u := &unstructured.Unstructured{}
	if err := yaml.Unmarshal(body, &u.Object); err != nil {
		return err
	}
	a.mu.Lock()
	a.calls = append(a.calls, u)
	a.mu.Unlock()
	return nil
}

// okProbe is a finished pass that found the agent and the channel well.
func okProbe(uid types.UID, gen int64) binding.ProbeResult {
	return binding.ProbeResult{
		UID: uid, Generation: gen,
		Backend: &binding.BackendObservation{HTTPStatus: 200,
			Body: []byte(`{"name":"echo","version":"1.0","supportedInterfaces":[{"url":"https://echo/a2a","protocolBinding":"JSONRPC"}]}`)},
		Channel: &binding.ChannelObservation{OK: true, IsMember: true},
	}
}

func newHost(t testing.TB, c client.Client) *Host {
	t.Helper()
	h, err := New(c, policy.DefaultLimits(), "")
	if err != nil {
		t.Fatal(err)
	}
	h.SetStartedAt(t0.Add(-time.Hour))
	h.SetProberListed()
	return h
}

func getBinding(t *testing.T, c client.Client, name string) *unstructured.Unstructured {
	t.Helper()
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(BindingGVK)
	if err := c.Get(context.Background(), types.NamespacedName{Namespace: "team-a", Name: name}, u); err != nil {
		t.Fatal(err)
	}
	return u
}

func conditionsOf(t *testing.T, u *unstructured.Unstructured) []metav1.Condition {
	t.Helper()
	var b akv1.Binding
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &b); err != nil {
		t.Fatal(err)
	}
	return b.Status.Conditions
}

// summary is "Type=Status/Reason" per condition, in order.
func summary(conds []metav1.Condition) string {
	var parts []string
	for _, c := range conds {
		parts = append(parts, c.Type+"="+string(c.Status)+"/"+c.Reason)
	}
	return strings.Join(parts, " ")
}

func statusManagers(u *unstructured.Unstructured) []string {
	var out []string
	for _, m := range u.GetManagedFields() {
		if m.FieldsV1 != nil && strings.Contains(m.FieldsV1.GetRawString(), `"f:conditions"`) {
			out = append(out, m.Manager+"/"+string(m.Operation))
		}
	}
	slices.Sort(out)
	return out
}

// applyOtherCondition applies a status of one condition of generation 1
// to the Binding team-a/team-a-chat, as another writer does with its own
// field manager (named in opts).
func applyOtherCondition(t *testing.T, c client.Client, typ, status, reason, message, at string, opts ...client.SubResourceApplyOption) {
	t.Helper()
	cond := map[string]any{"type": typ, "status": status, "reason": reason, "message": message,
		"lastTransitionTime": at, "observedGeneration": int64(1)}
	u := &unstructured.Unstructured{Object: map[string]any{"status": map[string]any{"conditions": []any{cond}}}}
	u.SetGroupVersionKind(BindingGVK)
	u.SetNamespace("team-a")
	u.SetName("team-a-chat")
	if err := c.Status().Apply(context.Background(), client.ApplyConfigurationFromUnstructured(u), opts...); err != nil {
		t.Fatal(err)
	}
}

// firstPassDone returns a client over the world and a host whose first
// pass, at t0 with the Binding's probe recorded, has already run.
func firstPassDone(t *testing.T, rec *applies) (client.WithWatch, *Host) {
	t.Helper()
	c := newClient(t, rec, objects(t, world)...)
	h := newHost(t, c)
	h.RecordProbe(okProbe("u-chat-1", 1))
	if _, err := h.RunOnce(context.Background(), t0); err != nil {
		t.Fatal(err)
	}
	return c, h
}

const allOK = "Accepted=True/OK BackendReachable=True/OK ChannelJoined=True/OK Ready=True/OK"

func TestRunOnce_StatusLandsUnderTheFieldManager(t *testing.T) {
	var rec applies
	c := newClient(t, &rec, objects(t, world)...)
	h := newHost(t, c)
	h.RecordProbe(okProbe("u-chat-1", 1))
	readRV := getBinding(t, c, "team-a-chat").GetResourceVersion()

	rep, err := h.RunOnce(context.Background(), t0)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Written) != 1 || rep.Written[0].Name != "team-a-chat" {
		t.Fatalf("written %v", rep.Written)
	}
	got := getBinding(t, c, "team-a-chat")
	if s := summary(conditionsOf(t, got)); s != allOK {
		t.Errorf("status %s", s)
	}
	if m := statusManagers(got); !slices.Equal(m, []string{FieldManager + "/Apply"}) {
		t.Errorf("status.conditions managed by %v, want only %s with Apply", m, FieldManager)
	}
	// The apply carries only status and the identity, with the
	// resourceVersion read as its precondition (the status subresource
	// would ignore a UID).
	applied := rec.calls[0]
	if applied.GetResourceVersion() != readRV || applied.Object["spec"] != nil {
		t.Errorf("apply configuration %v, read at resourceVersion %s", applied.Object, readRV)
	}

	// Nothing changed: nothing is written again.
	rep, err = h.RunOnce(context.Background(), t0.Add(time.Minute))
	if err != nil || len(rep.Written) != 0 || rec.count() != 1 {
		t.Fatalf("second pass wrote %v (applies %d, err %v)", rep.Written, rec.count(), err)
	}
}

func TestRunOnce_ForeignEditIsPutBackOnce(t *testing.T) {
	var rec applies
	c, h := firstPassDone(t, &rec)
	ctx := context.Background()

	// Someone else rewrites Ready with their own field manager.
	applyOtherCondition(t, c, "Ready", "False", "Broken", "edited by hand", "2026-11-30T10:00:02Z",
		client.FieldOwner("someone-else"), client.ForceOwnership)
	before := rec.count()

	// Within the write gap the put-back waits, and the edit is counted once.
	rep, err := h.RunOnce(ctx, t0.Add(3*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.PutBack) != 1 || len(rep.Written) != 0 || !rep.NextWrite.Equal(t0.Add(10*time.Second)) {
		t.Fatalf("within the gap: put back %v, written %v, next %v", rep.PutBack, rep.Written, rep.NextWrite)
	}
	rep, err = h.RunOnce(ctx, t0.Add(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Written) != 1 || len(rep.PutBack) != 0 {
		t.Fatalf("after the gap: written %v, put back %v", rep.Written, rep.PutBack)
	}
	for _, at := range []time.Duration{20 * time.Second, time.Minute, 10 * time.Minute} {
		if _, err := h.RunOnce(ctx, t0.Add(at)); err != nil {
			t.Fatal(err)
		}
	}
	if n := rec.count() - before; n != 1 {
		t.Errorf("%d writes after the foreign edit, want exactly 1", n)
	}
	got := getBinding(t, c, "team-a-chat")
	if s := summary(conditionsOf(t, got)); s != allOK {
		t.Errorf("status after the put-back: %s", s)
	}
	if m := statusManagers(got); !slices.Contains(m, FieldManager+"/Apply") {
		t.Errorf("status.conditions managed by %v after the put-back", m)
	}
}

func TestRunOnce_RecreatedBindingGetsNoOldStatus(t *testing.T) {
	var rec applies
	c, h := firstPassDone(t, &rec)
	ctx := context.Background()

	old := getBinding(t, c, "team-a-chat")
	if err := c.Delete(ctx, old); err != nil {
		t.Fatal(err)
	}
	again := objects(t, world)[2].(*unstructured.Unstructured)
	again.SetUID("u-chat-2")
	again.SetCreationTimestamp(metav1.NewTime(t0.Add(30 * time.Second)))
	if err := c.Create(ctx, again); err != nil {
		t.Fatal(err)
	}
	fresh := getBinding(t, c, "team-a-chat")
	if got := conditionsOf(t, fresh); len(got) != 0 {
		t.Fatalf("the new object starts with status %s", summary(got))
	}

	now := t0.Add(40 * time.Second)
	rep, err := h.RunOnce(ctx, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Written) != 1 {
		t.Fatalf("written %v", rep.Written)
	}
	got := conditionsOf(t, getBinding(t, c, "team-a-chat"))
	want := "Accepted=True/OK BackendReachable=Unknown/Pending ChannelJoined=Unknown/Pending Ready=Unknown/BackendReachable:Pending"
	if s := summary(got); s != want {
		t.Errorf("status of the new object %s, want %s", s, want)
	}
	for _, cond := range got {
		if !cond.LastTransitionTime.Time.Equal(now) {
			t.Errorf("%s carries lastTransitionTime %v from before the object existed", cond.Type, cond.LastTransitionTime)
		}
	}
	if last := rec.calls[len(rec.calls)-1]; last.GetResourceVersion() != fresh.GetResourceVersion() {
		t.Errorf("the write was computed from resourceVersion %q, the new object was read at %q", last.GetResourceVersion(), fresh.GetResourceVersion())
	}
	if _, kept := h.writers["u-chat-1"]; kept {
		t.Error("the writer still remembers the deleted object")
	}
}

func TestRunOnce_StandbyComputesButNeverWrites(t *testing.T) {
	var rec applies
	c := newClient(t, &rec, objects(t, world)...)
	h := newHost(t, c)
	h.SetLeader(false)
	rep, err := h.RunOnce(context.Background(), t0)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Evaluated != 1 || len(rep.Written) != 0 || rec.count() != 0 {
		t.Fatalf("evaluated %d, written %v, applies %d", rep.Evaluated, rep.Written, rec.count())
	}
}

func TestRunOnce_FailedWriteBacksOff(t *testing.T) {
	var rec applies
	c := newClient(t, &rec, objects(t, world)...)
	failing := interceptor.NewClient(c, interceptor.Funcs{
		SubResourceApply: func(context.Context, client.Client, string, runtime.ApplyConfiguration, ...client.SubResourceApplyOption) error {
			return context.DeadlineExceeded
		},
		SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
			if patch.Type() == types.ApplyPatchType {
				return context.DeadlineExceeded
			}
			return c.SubResource(sub).Patch(ctx, obj, patch, opts...)
		},
	})
	h := newHost(t, failing)
	rep, err := h.RunOnce(context.Background(), t0)
	if err != nil || len(rep.Failed) != 1 {
		t.Fatalf("failed %v, err %v", rep.Failed, err)
	}
	rep, _ = h.RunOnce(context.Background(), t0.Add(time.Second))
	if len(rep.Failed) != 0 || !rep.NextWrite.Equal(t0.Add(10*time.Second)) {
		t.Fatalf("retry not held for one gap: failed %v, next %v", rep.Failed, rep.NextWrite)
	}
}

func TestNew_RejectsBadLimitsAndNilClient(t *testing.T) {
	if _, err := New(nil, policy.DefaultLimits(), ""); err == nil {
		t.Error("nil client accepted")
	}
	l := policy.DefaultLimits()
	l.WriteGap = -time.Second
	c := newClient(t, &applies{})
	if _, err := New(c, l, ""); err == nil {
		t.Error("negative write gap accepted")
	}
	h, _ := New(c, policy.DefaultLimits(), "")
	if !h.NeedLeaderElection() {
		t.Error("the host must run only on the leader")
	}
}

// Another controller's condition on the same Binding is neither taken
// over nor removed: the apply names only the Binding's own types, and the
// API server (and here the fake, told the CRD's listType=map) tracks each
// condition's owner apart.
func TestRunOnce_OtherControllersConditionStaysTheirs(t *testing.T) {
	var rec applies
	c := newClient(t, &rec, objects(t, world)...)
	ctx := context.Background()
	applyOtherCondition(t, c, "example.com/Audited", "True", "Checked", "", "2026-11-30T09:00:00Z", client.FieldOwner("auditor"))
	rec.calls = nil
	h := newHost(t, c)
	h.RecordProbe(okProbe("u-chat-1", 1))
	if _, err := h.RunOnce(ctx, t0); err != nil {
		t.Fatal(err)
	}
	got := getBinding(t, c, "team-a-chat")
	// The API server keeps the existing entry first; our four follow.
	if s := summary(conditionsOf(t, got)); s != "example.com/Audited=True/Checked "+allOK {
		t.Errorf("status %s", s)
	}
	// That order is not ours to change: no write follows for it.
	for _, at := range []time.Duration{time.Minute, 10 * time.Minute} {
		if rep, err := h.RunOnce(ctx, t0.Add(at)); err != nil || len(rep.Written)+len(rep.PutBack) != 0 {
			t.Fatalf("at +%v: written %v, put back %v, err %v", at, rep.Written, rep.PutBack, err)
		}
	}
	if n := rec.count(); n != 1 {
		t.Errorf("%d applies, want 1", n)
	}
	for _, a := range rec.calls {
		conds, _, _ := unstructured.NestedSlice(a.Object, "status", "conditions")
		for _, x := range conds {
			if typ := x.(map[string]any)["type"]; typ == "example.com/Audited" {
				t.Errorf("the host applied another controller's condition %v", typ)
			}
		}
	}
	owners := map[string]string{}
	for _, m := range got.GetManagedFields() {
		raw := m.FieldsV1.GetRawString()
		for _, typ := range []string{"Accepted", "Ready", "example.com/Audited"} {
			if strings.Contains(raw, `"k:{\"type\":\"`+typ+`\"}"`) {
				owners[typ] = m.Manager
			}
		}
	}
	want := map[string]string{"Accepted": FieldManager, "Ready": FieldManager, "example.com/Audited": "auditor"}
	for typ, w := range want {
		if owners[typ] != w {
			t.Errorf("condition %s is owned by %q, want %q (managed fields %v)", typ, owners[typ], w, got.GetManagedFields())
		}
	}
}

// TestRunOnce_EventsOfATransition: each write records one Event per
// condition whose status moved, a Warning for one that became False,
// and a write that moves nothing records none.
func TestRunOnce_EventsOfATransition(t *testing.T) {
	var rec applies
	c := newClient(t, &rec, objects(t, world)...)
	events := record.NewFakeRecorder(20)
	h := newHost(t, c).WithEventRecorder(events)
	ctx := context.Background()
	h.RecordProbe(okProbe("u-chat-1", 1))
	if _, err := h.RunOnce(ctx, t0); err != nil {
		t.Fatal(err)
	}
	assertEvents(t, events,
		"Normal OK Accepted: none -> True",
		"Normal OK BackendReachable: none -> True",
		"Normal OK ChannelJoined: none -> True",
		"Normal OK Ready: none -> True")

	down := okProbe("u-chat-1", 1)
	down.Backend = &binding.BackendObservation{HTTPStatus: 503}
	h.RecordProbe(down)
	if _, err := h.RunOnce(ctx, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	got := conditionsOf(t, getBinding(t, c, "team-a-chat"))
	br, ready := findCond(got, "BackendReachable"), findCond(got, "Ready")
	if br == nil || ready == nil || br.Status != metav1.ConditionFalse || ready.Status != metav1.ConditionFalse {
		t.Fatalf("status after the failed probe: %s", summary(got))
	}
	assertEvents(t, events,
		"Warning "+br.Reason+" BackendReachable: True -> False: "+br.Message,
		"Warning "+ready.Reason+" Ready: True -> False: "+ready.Message)

	if _, err := h.RunOnce(ctx, t0.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	assertEvents(t, events)
}

func findCond(cs []metav1.Condition, typ string) *metav1.Condition {
	for i := range cs {
		if cs[i].Type == typ {
			return &cs[i]
		}
	}
	return nil
}

// assertEvents takes every Event recorded so far and compares them with
// want, in order.
func assertEvents(t *testing.T, rec *record.FakeRecorder, want ...string) {
	t.Helper()
	var got []string
	for len(rec.Events) > 0 {
		got = append(got, <-rec.Events)
	}
	if !slices.Equal(got, want) {
		t.Errorf("events\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestRunOnce_CoOwnedConditionOfOursIsRemoved: an earlier broker wrote
// the probe conditions with an update, beside an auditor's condition;
// the Binding is not served now (no channel), so the engine drops
// BackendReachable and ChannelJoined. The host's write removes them,
// though another field manager owns them, and the auditor's stays.
func TestRunOnce_CoOwnedConditionOfOursIsRemoved(t *testing.T) {
	objs := objects(t, world)
	if err := unstructured.SetNestedField(objs[2].(*unstructured.Unstructured).Object, "", "spec", "chat", "channel"); err != nil {
		t.Fatal(err)
	}
	var rec applies
	c := newClient(t, &rec, objs...)
	ctx := context.Background()
	var b akv1.Binding
	if err := c.Get(ctx, types.NamespacedName{Namespace: "team-a", Name: "team-a-chat"}, &b); err != nil {
		t.Fatal(err)
	}
	old := metav1.NewTime(t0.Add(-time.Hour))
	for _, typ := range []string{"Accepted", "BackendReachable", "ChannelJoined", "Ready", "example.com/Audited"} {
		b.Status.Conditions = append(b.Status.Conditions, metav1.Condition{Type: typ, Status: metav1.ConditionTrue, Reason: "OK", ObservedGeneration: 1, LastTransitionTime: old})
	}
	if err := c.Status().Update(ctx, &b, client.FieldOwner("agent-kourier-v0")); err != nil {
		t.Fatal(err)
	}

	h := newHost(t, c)
	if _, err := h.RunOnce(ctx, t0); err != nil {
		t.Fatal(err)
	}
	got := conditionsOf(t, getBinding(t, c, "team-a-chat"))
	var typesGot []string
	for _, x := range got {
		typesGot = append(typesGot, x.Type)
	}
	slices.Sort(typesGot)
	if want := []string{"Accepted", "Ready", "example.com/Audited"}; !slices.Equal(typesGot, want) {
		t.Errorf("conditions %s, want the types %v", summary(got), want)
	}
}
