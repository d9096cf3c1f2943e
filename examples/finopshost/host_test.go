package finopshost

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/record"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/yaml"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/examples/ctrlplan"
	"github.com/condengine/condengine/finops"
	"github.com/condengine/condengine/subscription"
)

var t0 = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

// family reads the objects of testdata/family.yaml, in its order.
func family(t *testing.T) []*unstructured.Unstructured {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "family.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var objs []*unstructured.Unstructured
	for _, d := range strings.Split(string(b), "\n---\n") {
		u := &unstructured.Unstructured{}
		if err := yaml.Unmarshal([]byte(d), &u.Object); err != nil {
			t.Fatal(err)
		}
		objs = append(objs, u)
	}
	return objs
}

func newClient(t *testing.T) client.WithWatch {
	t.Helper()
	var objs []client.Object
	for _, u := range family(t) {
		objs = append(objs, u)
	}
	return ctrlplan.NewFakeClientBuilder().WithObjects(objs...).Build()
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

// steps records the kind of each write the host sends, in order.
type steps struct{ list []string }

func (s *steps) client(t *testing.T, objs ...client.Object) client.WithWatch {
	t.Helper()
	return ctrlplan.NewFakeClientBuilder().WithObjects(objs...).WithInterceptorFuncs(interceptor.Funcs{
		SubResourceApply: func(ctx context.Context, c client.Client, sub string, obj runtime.ApplyConfiguration, opts ...client.SubResourceApplyOption) error {
			s.list = append(s.list, "status apply")
			return c.SubResource(sub).Apply(ctx, obj, opts...)
		},
		// ctrlplan sends a plan's apply as it is, a PATCH of the apply
		// type.
		SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
			if patch.Type() == types.ApplyPatchType {
				s.list = append(s.list, "status apply")
			}
			return c.SubResource(sub).Patch(ctx, obj, patch, opts...)
		},
		Patch: func(ctx context.Context, c client.WithWatch, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
			s.list = append(s.list, "patch "+obj.GetName())
			return c.Patch(ctx, obj, patch, opts...)
		},
		Apply: func(ctx context.Context, c client.WithWatch, obj runtime.ApplyConfiguration, opts ...client.ApplyOption) error {
			s.list = append(s.list, "apply")
			return c.Apply(ctx, obj, opts...)
		},
	}).Build()
}

// TestRunOnce_StatusBeforeTheFinalizer: an Offering without dependents is
// deleted; the host writes its status (Deleting=True) and only then
// releases its finalizer, which lets the object go.
func TestRunOnce_StatusBeforeTheFinalizer(t *testing.T) {
	var s steps
	c := s.client(t, family(t)[2])
	h, err := New(c, "finops-operator-system")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	settle(t, h, t0)
	off := get(t, c, OfferingGVK, "shop", "platform-base")
	if f := off.GetFinalizers(); len(f) != 1 {
		t.Fatalf("finalizers %v", f)
	}
	if err := c.Delete(ctx, off); err != nil {
		t.Fatal(err)
	}
	s.list = nil
	rep, err := h.RunOnce(ctx, t0.Add(time.Minute))
	if err != nil || len(rep.Errors) > 0 {
		t.Fatalf("pass: %v %v", err, rep.Errors)
	}
	if want := []string{"status apply", "patch platform-base"}; !slices.Equal(s.list, want) {
		t.Errorf("writes %v, want %v", s.list, want)
	}
	if want := []string{"Offering shop/platform-base -finalizer"}; !slices.Equal(rep.Finalizers, want) {
		t.Errorf("finalizers %v, want %v", rep.Finalizers, want)
	}
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(OfferingGVK)
	if err := c.Get(ctx, types.NamespacedName{Namespace: "shop", Name: "platform-base"}, u); !apierrors.IsNotFound(err) {
		t.Errorf("the released Offering is still there: %v", err)
	}
}

// TestRunOnce_ACollectionRunReleasesTheDeletedSubscription: a deleted
// parent waits for the charge collection; a run scheduled for the hour
// it was deactivated in keeps it, the next hour's run lets it go, its
// status (the run's CostsResolved) written before the finalizer patch.
func TestRunOnce_ACollectionRunReleasesTheDeletedSubscription(t *testing.T) {
	var s steps
	var objs []client.Object
	for _, u := range family(t) {
		objs = append(objs, u)
	}
	c := s.client(t, objs...)
	h, err := New(c, "finops-operator-system")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	settle(t, h, t0)
	parent := get(t, c, SubscriptionGVK, "acme", "platform")
	parent.SetFinalizers([]string{finopsv1.SubscriptionFinalizer})
	if err := c.Update(ctx, parent); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete(ctx, parent); err != nil {
		t.Fatal(err)
	}
	settle(t, h, t0.Add(time.Hour)) // deactivated at 11:00
	run := func(hour time.Time) *subscription.Collection {
		r := &subscription.Collection{ScheduledHour: hour}
		for _, name := range []string{"analytics", "platform"} {
			r.Results = append(r.Results, subscription.CollectionResult{Subscription: finopsv1.Reference{Namespace: "acme", Name: name}, Buckets: 3, Source: subscription.SourceDB})
		}
		return r
	}

	h.SetCollection(run(t0.Add(time.Hour)))
	settle(t, h, t0.Add(time.Hour+5*time.Minute))
	if got := conds(get(t, c, SubscriptionGVK, "acme", "platform")); !strings.Contains(got, "Deleting=False/WaitingForCollectionJob") ||
		!strings.Contains(got, "CostsResolved=True/FromDB") {
		t.Errorf("the run of the deactivation hour: parent %s", got)
	}

	h.SetCollection(run(t0.Add(2 * time.Hour)))
	s.list = nil
	rep, err := h.RunOnce(ctx, t0.Add(2*time.Hour+time.Minute))
	if err != nil || len(rep.Errors) > 0 {
		t.Fatalf("pass: %v %v", err, rep.Errors)
	}
	if want := []string{"Subscription acme/platform -finalizer"}; !slices.Equal(rep.Finalizers, want) {
		t.Errorf("finalizers %v, want %v", rep.Finalizers, want)
	}
	if n := len(s.list); n < 2 || !slices.Equal(s.list[n-2:], []string{"status apply", "patch platform"}) {
		t.Errorf("writes %v, want the parent's status apply, then its finalizer patch, last", s.list)
	}
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(SubscriptionGVK)
	if err := c.Get(ctx, types.NamespacedName{Namespace: "acme", Name: "platform"}, u); !apierrors.IsNotFound(err) {
		t.Errorf("the released Subscription is still there: %v", err)
	}
	if rep, err := h.RunOnce(ctx, t0.Add(2*time.Hour+2*time.Minute)); err != nil || rep.Changed() {
		t.Errorf("a pass with the same run again: %v %+v", err, rep)
	}
}

// failingTarget is a cluster with the active book, the Offering and a
// Subscription whose target (ConfigMap acme/target, absent) cannot be
// read while *failing: a server error, not NotFound.
func failingTarget(t *testing.T, failing *bool) client.WithWatch {
	t.Helper()
	sub := family(t)[3]
	if err := unstructured.SetNestedMap(sub.Object, map[string]any{"targetRef": map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "namespace": "acme", "name": "target"}}, "spec", "lifecycle"); err != nil {
		t.Fatal(err)
	}
	return ctrlplan.NewFakeClientBuilder().WithObjects(family(t)[1], family(t)[2], sub).WithInterceptorFuncs(interceptor.Funcs{
		Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
			if key.Name == "target" && *failing {
				return apierrors.NewInternalError(errors.New("etcd leader changed"))
			}
			return c.Get(ctx, key, obj, opts...)
		},
	}).Build()
}

// failingAfterSettling is a host whose family has settled (its target
// missing) a minute before t0, with the target's read failing from then
// on until the caller sets *failing back to false; name is the
// Subscription that reads it.
func failingAfterSettling(t *testing.T) (h *Host, failing *bool, name types.NamespacedName) {
	t.Helper()
	failing = new(bool)
	h, err := New(failingTarget(t, failing), "finops-operator-system")
	if err != nil {
		t.Fatal(err)
	}
	settle(t, h, t0.Add(-time.Minute))
	*failing = true
	return h, failing, types.NamespacedName{Namespace: "acme", Name: "platform"}
}

// TestRunOnce_ATransientFailureIsRequeued: a Subscription whose target
// cannot be read (a server error, not NotFound) asks for a retry, and
// the wait handed to controller-runtime is not 0, which would mean
// "never again".
func TestRunOnce_ATransientFailureIsRequeued(t *testing.T) {
	failing := true
	h, err := New(failingTarget(t, &failing), "finops-operator-system")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := h.RunOnce(context.Background(), t0)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Retry {
		t.Fatalf("no retry after a failed read: %+v", rep)
	}
	if d := rep.RequeueAfter(t0); d <= 0 {
		t.Errorf("RequeueAfter %v: controller-runtime would not requeue", d)
	}
	if (Report{}).RequeueAfter(t0) != 0 {
		t.Error("a report without a retry asks for a requeue")
	}
}

// TestRunOnce_EventsOfATransition: the first write of each object
// records one Event per condition it sets; a pass that writes nothing
// records none.
func TestRunOnce_EventsOfATransition(t *testing.T) {
	c := ctrlplan.NewFakeClientBuilder().WithObjects(family(t)[1]).Build()
	events := record.NewFakeRecorder(20)
	h, err := New(c, "finops-operator-system")
	if err != nil {
		t.Fatal(err)
	}
	h.WithEventRecorder(events)
	settle(t, h, t0)
	var got []string
	for len(events.Events) > 0 {
		got = append(got, <-events.Events)
	}
	want := []string{"Normal ValidationSucceeded Ready: none -> True", "Normal Activated Active: none -> True"}
	if len(got) != len(want) {
		t.Fatalf("events %q, want %q", got, want)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("event %d: %q, want %q…", i, got[i], want[i])
		}
	}
}

// TestRunOnce_RetriesBackOff: a Subscription whose target read keeps
// failing is due again at the engine's RetryAt first, then at twice the
// last wait each time a pass at its due instant finds it still failing;
// a pass before that instant (an event's) leaves it waiting, and once
// the read succeeds the backoff is forgotten.
func TestRunOnce_RetriesBackOff(t *testing.T) {
	h, failing, name := failingAfterSettling(t)
	for _, step := range []struct {
		at   time.Duration // the pass's instant after t0
		want time.Duration // its wait, 0 for none
	}{
		{0, time.Second},
		{500 * time.Millisecond, time.Second}, // an event's pass: still due at t0+1s, and no wait is under RetryDelay
		{time.Second, 2 * time.Second},
		{3 * time.Second, 4 * time.Second},
		{7 * time.Second, 8 * time.Second},
	} {
		now := t0.Add(step.at)
		rep, err := h.RunOnce(context.Background(), now)
		if err != nil {
			t.Fatal(err)
		}
		if got := rep.RequeueAfterOf(name, now); got != step.want {
			t.Errorf("pass at +%v: wait %v, want %v", step.at, got, step.want)
		}
		if !rep.Retry || rep.RetryAt.After(now.Add(step.want)) {
			t.Errorf("pass at +%v: Retry %v at %v, not before %v", step.at, rep.Retry, rep.RetryAt, now.Add(step.want))
		}
		if got := rep.RequeueAfterOf(types.NamespacedName{Namespace: "shop", Name: "platform-base"}, now); got != 0 {
			t.Errorf("pass at +%v: the ready Offering waits %v for a retry", step.at, got)
		}
	}
	*failing = false
	now := t0.Add(20 * time.Second)
	rep, err := h.RunOnce(context.Background(), now)
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.RequeueAfterOf(name, now); got != 0 {
		t.Errorf("after the read succeeded: wait %v", got)
	}
	*failing = true
	now = now.Add(time.Second)
	if rep, err = h.RunOnce(context.Background(), now); err != nil {
		t.Fatal(err)
	}
	if got := rep.RequeueAfterOf(name, now); got != time.Second {
		t.Errorf("a new failure waits %v, want the first wait again", got)
	}
}

// withoutOurScheme is a client whose scheme lacks the FinOps kinds, as
// a manager's client without them registered.
type withoutOurScheme struct{ client.WithWatch }

func (withoutOurScheme) Scheme() *runtime.Scheme { return runtime.NewScheme() }

// TestRunOnce_SameStatusesWithOrWithoutOurKindsInTheScheme: the host
// reads typed lists when the client knows the kinds and unstructured
// ones when it does not; both settle the family to the same statuses.
func TestRunOnce_SameStatusesWithOrWithoutOurKindsInTheScheme(t *testing.T) {
	statuses := func(c client.Client) []string {
		h, err := New(c, "finops-operator-system")
		if err != nil {
			t.Fatal(err)
		}
		settle(t, h, t0)
		var out []string
		for _, k := range []struct {
			gvk      schema.GroupVersionKind
			ns, name string
		}{
			{PriceBookGVK, "finops-operator-system", "standard"}, {PriceBookGVK, "finops-operator-system", "legacy"},
			{OfferingGVK, "shop", "platform-base"}, {SubscriptionGVK, "acme", "platform"}, {SubscriptionGVK, "acme", "analytics"},
		} {
			out = append(out, k.name+": "+conds(get(t, c, k.gvk, k.ns, k.name)))
		}
		return out
	}
	typed, plain := statuses(newClient(t)), statuses(withoutOurScheme{newClient(t)})
	if !slices.Equal(typed, plain) {
		t.Errorf("typed lists %q, unstructured ones %q", typed, plain)
	}
	if len(typed) != 5 || !strings.Contains(typed[0], "Active=True") {
		t.Errorf("the family did not settle: %q", typed)
	}
}

// TestRunOnce_AFailedListComesBack: while the PriceBook list fails, the
// engine leaves the books out of its answer and nothing asks for them;
// the host comes back on its own, at a doubling wait for any request
// name, and forgets the wait once the list works.
func TestRunOnce_AFailedListComesBack(t *testing.T) {
	failing := true
	c := ctrlplan.NewFakeClientBuilder().WithObjects(family(t)[0], family(t)[1]).WithInterceptorFuncs(interceptor.Funcs{
		List: func(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
			if _, books := list.(*finopsv1.PriceBookList); books && failing {
				return apierrors.NewServiceUnavailable("the server is unavailable")
			}
			return c.List(ctx, list, opts...)
		},
	}).Build()
	h, err := New(c, "finops-operator-system")
	if err != nil {
		t.Fatal(err)
	}
	name := types.NamespacedName{Namespace: "finops-operator-system", Name: "legacy"}
	for _, step := range []struct{ at, want time.Duration }{{0, time.Second}, {time.Second, 2 * time.Second}, {3 * time.Second, 4 * time.Second}} {
		now := t0.Add(step.at)
		rep, err := h.RunOnce(context.Background(), now)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Changed() {
			t.Errorf("pass at +%v wrote %v %v with its books unread", step.at, rep.Written, rep.Finalizers)
		}
		if got := rep.RequeueAfterOf(name, now); got != step.want || !rep.Retry {
			t.Errorf("pass at +%v: wait %v (Retry %v), want %v", step.at, got, rep.Retry, step.want)
		}
	}
	failing = false
	now := t0.Add(10 * time.Second)
	rep, err := h.RunOnce(context.Background(), now)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(rep.Written, "PriceBook finops-operator-system/legacy") {
		t.Errorf("the pass after the list worked again wrote %v", rep.Written)
	}
	if got := rep.RequeueAfterOf(name, now); got != 0 || !rep.ReadRetryAt.IsZero() {
		t.Errorf("after the list worked: wait %v, ReadRetryAt %v", got, rep.ReadRetryAt)
	}
}

// TestRunOnce_AClockThatWentBackDoesNotStretchAWait: after the clock
// jumps back five minutes, a retry due two seconds ahead is still due at
// most its two-second wait ahead, not five minutes and two seconds.
func TestRunOnce_AClockThatWentBackDoesNotStretchAWait(t *testing.T) {
	h, _, name := failingAfterSettling(t)
	for _, at := range []time.Duration{0, time.Second} {
		if _, err := h.RunOnce(context.Background(), t0.Add(at)); err != nil {
			t.Fatal(err)
		}
	}
	back := t0.Add(-5 * time.Minute)
	rep, err := h.RunOnce(context.Background(), back)
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.RequeueAfterOf(name, back); got <= 0 || got > 2*time.Second {
		t.Errorf("after the clock went back: wait %v, want at most the 2s it was given", got)
	}
}

// A percent book's rate is its own text and may hold a C1 control: the
// host's status apply and its pricing ConfigMap both pass the store's
// YAML reader (as an API server's apply does), and both hold the rate as
// written.
func TestRunOnce_ARateHoldingAC1Control_StoredAsWritten(t *testing.T) {
	u := &unstructured.Unstructured{}
	require.NoError(t, yaml.Unmarshal([]byte(`
apiVersion: finops.stakater.com/v1alpha1
kind: PriceBook
metadata: {namespace: finops-operator-system, name: odd, uid: u-odd, generation: 1, creationTimestamp: "2026-09-01T00:00:00Z",
           annotations: {finops.stakater.com/active: "true"}}
spec: {currency: USD, valuationMode: percent, rates: {cpuHour: "0.5\u009c", gpuHour: "\u007f\u0085"}}
`), &u.Object))
	c := ctrlplan.NewFakeClientBuilder().WithObjects(u).Build()
	h, err := New(c, "finops-operator-system")
	require.NoError(t, err)
	settle(t, h, t0)

	b := get(t, c, PriceBookGVK, "finops-operator-system", "odd")
	pricing, _, _ := unstructured.NestedStringMap(b.Object, "status", "activePricing")
	assert.Equal(t, "0.5\u009c", pricing["CPU"])
	assert.Equal(t, "\u007f\u0085", pricing["GPU"])
	cm := get(t, c, schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, "finops-operator-system", finops.PricingConfigMap)
	data, _, _ := unstructured.NestedString(cm.Object, "data", finops.PricingKey)
	var doc map[string]string
	require.NoError(t, json.Unmarshal([]byte(data), &doc))
	assert.Equal(t, pricing, doc)
}
