package writeplan_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/writeplan"
)

var opts = writeplan.Options{FieldManager: "agent-kourier"}

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
		"no finalizer":     {b, &conditions.Outcome{Kind: akv1.KindBinding, Namespace: "n", Name: "b", Finalizer: conditions.FinalizerRemove}, nil, opts, "has none"},
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
	p, err := writeplan.For(s, o, s.Status, opts)
	require.NoError(t, err)
	require.Len(t, p.Requests, 2)
	assert.Equal(t, writeplan.StepApplyStatus, p.Requests[0].Step)
	assert.Equal(t, writeplan.StepRemoveFinalizer, p.Requests[1].Step)
	assert.JSONEq(t, `[{"op":"test","path":"/metadata/finalizers/1","value":"subscriptions.finops.stakater.com/finalizer"},{"op":"remove","path":"/metadata/finalizers/1"}]`, string(p.Requests[1].Body))

	o.Finalizer = conditions.FinalizerAdd
	p, err = writeplan.For(s, o, s.Status, opts)
	require.NoError(t, err)
	require.Len(t, p.Requests, 1, "the finalizer is there already")

	s.Finalizers = nil
	o.Write = false
	p, err = writeplan.For(s, o, s.Status, opts)
	require.NoError(t, err)
	require.Len(t, p.Requests, 1)
	assert.Equal(t, writeplan.StepAddFinalizer, p.Requests[0].Step)
	assert.JSONEq(t, `{"apiVersion":"finops.stakater.com/v1alpha1","kind":"Subscription","metadata":{"name":"s","namespace":"n","finalizers":["subscriptions.finops.stakater.com/finalizer"]}}`, string(p.Requests[0].Body))
}
