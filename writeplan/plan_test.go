package writeplan_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/writeplan"
)

// The kinds the tests plan for, declared as a host declares them.
var (
	bindingKind      = writeplan.Kind{APIVersion: akv1.APIVersion, Kind: akv1.KindBinding}
	subscriptionKind = writeplan.Kind{APIVersion: finopsv1.APIVersion, Kind: finopsv1.KindSubscription, Finalizer: finopsv1.SubscriptionFinalizer}

	opts    = writeplan.Options{FieldManager: "agent-kourier", Kind: bindingKind}
	subOpts = writeplan.Options{FieldManager: "agent-kourier", Kind: subscriptionKind}
	// finopsWriter is the FinOps writer of the store tests.
	finopsWriter = writeplan.Options{FieldManager: ourManager, Kind: subscriptionKind}
)

func TestFor_Refuses(t *testing.T) {
	b := &akv1.Binding{ObjectMeta: metav1.ObjectMeta{Namespace: "n", Name: "b", ResourceVersion: "1"}}
	ok := &conditions.Outcome{Kind: akv1.KindBinding, Namespace: "n", Name: "b", Write: true}
	for name, tc := range map[string]struct {
		obj    writeplan.Object
		o      *conditions.Outcome
		status any
		opts   writeplan.Options
		err    string
	}{
		"no field manager": {b, ok, akv1.BindingStatus{}, writeplan.Options{}, "FieldManager"},
		"nil outcome":      {b, nil, akv1.BindingStatus{}, opts, "nil"},
		"nil object":       {nil, ok, akv1.BindingStatus{}, opts, "nil"},
		"other object":     {b, &conditions.Outcome{Kind: akv1.KindBinding, Namespace: "n", Name: "c"}, nil, opts, "n/c"},
		"unknown kind":     {b, &conditions.Outcome{Kind: "Pod", Namespace: "n", Name: "b"}, nil, opts, `"Pod"`},
		"nil status":       {b, ok, nil, opts, "nil status"},
		"not an object":    {b, ok, 3, opts, "not a JSON object"},
		"no finalizer":     {b, &conditions.Outcome{Kind: akv1.KindBinding, Namespace: "n", Name: "b", Finalizer: conditions.FinalizerRemove}, nil, opts, "a Binding has none"},
		"no finalizer, an": {&akv1.AgentBackend{ObjectMeta: b.ObjectMeta}, &conditions.Outcome{Kind: akv1.KindAgentBackend, Namespace: "n", Name: "b", Finalizer: conditions.FinalizerAdd}, nil,
			writeplan.Options{FieldManager: "agent-kourier", Kind: writeplan.Kind{APIVersion: akv1.APIVersion, Kind: akv1.KindAgentBackend}}, "an AgentBackend has none"},
		"unguarded removal": {&akv1.Binding{ObjectMeta: metav1.ObjectMeta{Namespace: "n", Name: "b"},
			Status: akv1.BindingStatus{Conditions: []metav1.Condition{{Type: "Ready"}}}}, ok, akv1.BindingStatus{}, opts, "resourceVersion"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := writeplan.For(tc.obj, tc.o, tc.status, tc.opts)
			require.ErrorContains(t, err, tc.err)
		})
	}
}

func TestFor_NoWriteNoFinalizerIsEmpty(t *testing.T) {
	b := &akv1.Binding{ObjectMeta: metav1.ObjectMeta{Namespace: "n", Name: "b"}}
	p, err := writeplan.For(b, &conditions.Outcome{Kind: akv1.KindBinding, Namespace: "n", Name: "b", Skip: conditions.SkipUnchanged}, nil, opts)
	require.NoError(t, err)
	assert.True(t, p.Empty())
}

func TestFor_FinalizerSteps(t *testing.T) {
	s := &finopsv1.Subscription{ObjectMeta: metav1.ObjectMeta{Namespace: "n", Name: "s",
		Finalizers: []string{"other.example/x", finopsv1.SubscriptionFinalizer}}}
	o := &conditions.Outcome{Kind: finopsv1.KindSubscription, Namespace: "n", Name: "s", Write: true, Finalizer: conditions.FinalizerRemove}
	p, err := writeplan.For(s, o, s.Status, subOpts)
	require.NoError(t, err)
	require.Len(t, p.Requests, 2)
	assert.Equal(t, writeplan.StepApplyStatus, p.Requests[0].Step)
	assert.Equal(t, writeplan.StepRemoveFinalizer, p.Requests[1].Step)
	assert.JSONEq(t, `[{"op":"test","path":"/metadata/finalizers/1","value":"subscriptions.finops.stakater.com/finalizer"},{"op":"remove","path":"/metadata/finalizers/1"}]`, string(p.Requests[1].Body))

	o.Finalizer = conditions.FinalizerAdd
	p, err = writeplan.For(s, o, s.Status, subOpts)
	require.NoError(t, err)
	require.Len(t, p.Requests, 1, "the finalizer is there already")

	s.Finalizers = nil
	o.Write = false
	p, err = writeplan.For(s, o, s.Status, subOpts)
	require.NoError(t, err)
	require.Len(t, p.Requests, 1)
	assert.Equal(t, writeplan.StepAddFinalizer, p.Requests[0].Step)
	assert.JSONEq(t, `[{"op":"add","path":"/metadata/finalizers","value":["subscriptions.finops.stakater.com/finalizer"]}]`, string(p.Requests[0].Body))

	s.Finalizers = []string{"other.example/x"}
	s.ResourceVersion = "7"
	p, err = writeplan.For(s, o, s.Status, subOpts)
	require.NoError(t, err)
	require.Len(t, p.Requests, 1)
	assert.JSONEq(t, `[{"op":"replace","path":"/metadata/resourceVersion","value":"7"},{"op":"add","path":"/metadata/finalizers/-","value":"subscriptions.finops.stakater.com/finalizer"}]`, string(p.Requests[0].Body),
		"appended to the list read, guarded by its resourceVersion")
}

const ourManager = "finops-operator"

var subGVK = finopsv1.GroupVersion.WithKind(finopsv1.KindSubscription)

func toU(t interface{ Fatal(...any) }, obj runtime.Object) *unstructured.Unstructured {
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		t.Fatal(err)
	}
	return &unstructured.Unstructured{Object: m}
}

func fromU(t interface{ Fatal(...any) }, u *unstructured.Unstructured) *finopsv1.Subscription {
	var s finopsv1.Subscription
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &s); err != nil {
		t.Fatal(err)
	}
	return &s
}

func subscription(conds []metav1.Condition, finalizers []string) *finopsv1.Subscription {
	s := &finopsv1.Subscription{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "plan", Finalizers: finalizers}}
	s.SetGroupVersionKind(subGVK)
	s.Status.Conditions = conds
	return s
}

func bodies(p writeplan.Plan) string {
	var s string
	for _, r := range p.Requests {
		s += string(r.Step) + " " + string(r.Body) + "\n"
	}
	return s
}

// TestRemovalNeverRemovesAFresherWrite: a write by another manager after
// the read makes the removal request fail with a conflict, and the stored
// conditions stay as that writer left them.
func TestRemovalNeverRemovesAFresherWrite(t *testing.T) {
	s, err := newStore(subGVK)
	if err != nil {
		t.Fatal(err)
	}
	stale := metav1.Condition{Type: "Deleting", Status: metav1.ConditionTrue, Reason: "OK", Message: "m", LastTransitionTime: metav1.Unix(1_700_000_000, 0)}
	if err := s.create(toU(t, subscription([]metav1.Condition{stale}, nil)), "finops-operator-v0"); err != nil {
		t.Fatal(err)
	}
	read := fromU(t, s.get())
	o := &conditions.Outcome{Kind: finopsv1.KindSubscription, Namespace: read.Namespace, Name: read.Name, Write: true}
	p, err := writeplan.For(read, o, read.Status, finopsWriter)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Requests) != 2 || p.Requests[0].Step != writeplan.StepRemoveConditions {
		t.Fatalf("plan %s", bodies(p))
	}
	fresher := read.DeepCopy()
	fresher.Status.Conditions[0].Message = "rewritten after our read"
	if err := s.update(toU(t, fresher), "kubectl-edit", "status"); err != nil {
		t.Fatal(err)
	}
	if err := s.carry(p.Requests[0]); !errors.Is(err, errConflict) {
		t.Fatalf("removal after a fresher write: %v, want a conflict", err)
	}
	if got := fromU(t, s.get()).Status.Conditions; len(got) != 1 || got[0].Message != "rewritten after our read" {
		t.Fatalf("conditions %v", got)
	}
}

// TestFor_GuardsEveryRequest: the first request carries the
// resourceVersion read; every later one is guarded by the one the
// previous request left, so another writer who comes between two
// requests of a plan makes the next one fail with a conflict.
func TestFor_GuardsEveryRequest(t *testing.T) {
	s, err := newStore(subGVK)
	require.NoError(t, err)
	stale := metav1.Condition{Type: "Deleting", Status: metav1.ConditionTrue, Reason: "OK", Message: "m", LastTransitionTime: metav1.Unix(1_700_000_000, 0)}
	require.NoError(t, s.create(toU(t, subscription([]metav1.Condition{stale}, []string{finopsv1.SubscriptionFinalizer})), "finops-operator-v0"))
	read := fromU(t, s.get())
	o := &conditions.Outcome{Kind: finopsv1.KindSubscription, Namespace: read.Namespace, Name: read.Name, Write: true, Finalizer: conditions.FinalizerRemove}
	p, err := writeplan.For(read, o, read.Status, finopsWriter)
	require.NoError(t, err)
	require.Len(t, p.Requests, 3, bodies(p))
	first := p.Requests[0]
	assert.Equal(t, writeplan.StepRemoveConditions, first.Step)
	assert.Equal(t, read.ResourceVersion, first.ResourceVersion)
	assert.False(t, first.AfterPrevious)
	assert.Contains(t, string(first.Body), `{"op":"replace","path":"/metadata/resourceVersion","value":"`+read.ResourceVersion+`"}`)
	for _, r := range p.Requests[1:] {
		assert.True(t, r.AfterPrevious, r.Step)
		assert.Empty(t, r.ResourceVersion, r.Step)
		assert.NotContains(t, string(r.Body), "resourceVersion", r.Step)
		g, err := r.GuardedBody("42")
		require.NoError(t, err)
		assert.Contains(t, string(g), `"42"`, r.Step)
		again, err := writeplan.Request{Step: r.Step, PatchType: r.PatchType, Body: g}.GuardedBody("43")
		require.NoError(t, err)
		assert.Equal(t, 1, strings.Count(string(again), "resourceVersion"), "a guard replaces the one there: %s", again)
	}

	require.NoError(t, s.carry(p.Requests[0]))
	between := fromU(t, s.get())
	between.Status.Conditions = append(between.Status.Conditions, metav1.Condition{Type: "example.com/Audited", Status: metav1.ConditionTrue,
		Reason: "Reviewed", LastTransitionTime: metav1.Unix(1_700_000_000, 0)})
	require.NoError(t, s.update(toU(t, between), "auditor", "status"))
	// The apply, guarded by what the removal left, now meets the
	// auditor's write and fails rather than land on an object it never saw.
	require.ErrorIs(t, s.carry(p.Requests[1]), errConflict)
}

// TestFor_FinalizerFirstInTheListIsThere: a finalizer at index 0 is
// found, so an add asks for nothing and a removal removes index 0.
func TestFor_FinalizerFirstInTheListIsThere(t *testing.T) {
	s := &finopsv1.Subscription{ObjectMeta: metav1.ObjectMeta{Namespace: "n", Name: "s",
		Finalizers: []string{finopsv1.SubscriptionFinalizer, "other.example/x"}}}
	o := &conditions.Outcome{Kind: finopsv1.KindSubscription, Namespace: "n", Name: "s", Finalizer: conditions.FinalizerAdd}
	p, err := writeplan.For(s, o, nil, subOpts)
	require.NoError(t, err)
	assert.True(t, p.Empty(), bodies(p))

	o.Finalizer = conditions.FinalizerRemove
	p, err = writeplan.For(s, o, nil, subOpts)
	require.NoError(t, err)
	require.Len(t, p.Requests, 1)
	assert.JSONEq(t, `[{"op":"test","path":"/metadata/finalizers/0","value":"subscriptions.finops.stakater.com/finalizer"},{"op":"remove","path":"/metadata/finalizers/0"}]`, string(p.Requests[0].Body))
}

// TestFor_RefusesAnOutcomeOfAnotherUID: an outcome computed for an
// object that was deleted and made again under the same name is not
// planned onto the new one; with the same uid, or one side without a
// uid, it is.
func TestFor_RefusesAnOutcomeOfAnotherUID(t *testing.T) {
	b := &akv1.Binding{ObjectMeta: metav1.ObjectMeta{Namespace: "n", Name: "b", UID: "u-new"}}
	for _, tc := range []struct {
		outcome, object string
		refused         bool
	}{
		{"u-old", "u-new", true},
		{"u-new", "u-new", false},
		{"", "u-new", false},
		{"u-old", "", false},
	} {
		b.UID = types.UID(tc.object)
		o := &conditions.Outcome{Kind: akv1.KindBinding, Namespace: "n", Name: "b", UID: types.UID(tc.outcome)}
		_, err := writeplan.For(b, o, nil, opts)
		if tc.refused {
			assert.ErrorContains(t, err, "the outcome is for Binding n/b", "outcome uid %q, object uid %q", tc.outcome, tc.object)
		} else {
			assert.NoError(t, err, "outcome uid %q, object uid %q", tc.outcome, tc.object)
		}
	}
}

// TestGuardedBody_EmptyPatch: an empty JSON patch guarded is the
// resourceVersion test alone.
func TestGuardedBody_EmptyPatch(t *testing.T) {
	g, err := writeplan.Request{Step: writeplan.StepRemoveConditions, PatchType: types.JSONPatchType, Body: []byte(`[]`)}.GuardedBody("9")
	require.NoError(t, err)
	assert.JSONEq(t, `[{"op":"replace","path":"/metadata/resourceVersion","value":"9"}]`, string(g))
}
