package writeplan_test

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/config/crd"
	"github.com/condengine/condengine/writeplan"
)

// A kind of another module, which this one knows nothing of: the caller
// declares it.
const (
	databaseAPIVersion = "example.com/v1"
	databaseFinalizer  = "databases.example.com/finalizer"
)

var (
	databaseGVK   = schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Database"}
	databaseKind  = writeplan.Kind{APIVersion: databaseAPIVersion, Kind: "Database", Finalizer: databaseFinalizer}
	databaseWrite = writeplan.Options{FieldManager: "database-operator", Kind: databaseKind}
)

// database is the other module's API type: metadata and a status with
// conditions, all a plan needs.
type database struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            databaseStatus `json:"status,omitempty"`
}

type databaseStatus struct {
	Endpoint   string             `json:"endpoint,omitempty"`
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

func (d *database) GetConditions() []metav1.Condition { return d.Status.Conditions }

// databaseCRD is its definition, as the other module generates it.
const databaseCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: databases.example.com
spec:
  group: example.com
  names: {kind: Database, plural: databases}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
          status:
            type: object
            properties:
              endpoint: {type: string}
              conditions:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [type]
                items:
                  type: object
                  properties:
                    type: {type: string}
                    status: {type: string}
                    observedGeneration: {type: integer, format: int64}
                    lastTransitionTime: {type: string, format: date-time}
                    reason: {type: string}
                    message: {type: string}
`

func dbToU(t *testing.T, d *database) *unstructured.Unstructured {
	t.Helper()
	d.SetGroupVersionKind(databaseGVK)
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(d)
	require.NoError(t, err)
	return &unstructured.Unstructured{Object: m}
}

func dbFromU(t *testing.T, u *unstructured.Unstructured) *database {
	t.Helper()
	var d database
	require.NoError(t, runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &d))
	return &d
}

// TestFor_AnyKindTheCallerDeclares plans for a kind the module does not
// ship and carries the plan out on a store typed by its definition: the
// apply carries the declared apiVersion and kind, the condition type an
// older writer co-owns is removed first, another controller's condition
// stays, and the declared finalizer is added last.
func TestFor_AnyKindTheCallerDeclares(t *testing.T) {
	tc, err := crd.TypeConverterFrom(fstest.MapFS{"example.com_databases.yaml": {Data: []byte(databaseCRD)}})
	require.NoError(t, err)
	s, err := newStoreWith(tc, databaseGVK)
	require.NoError(t, err)
	at := metav1.Unix(1_700_000_000, 0)
	provisioned := metav1.Condition{Type: "Provisioned", Status: metav1.ConditionTrue, Reason: "Created", Message: "created", LastTransitionTime: at}
	backedUp := metav1.Condition{Type: "example.com/BackedUp", Status: metav1.ConditionTrue, Reason: "Snapshot", Message: "nightly", LastTransitionTime: at}
	created := &database{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "orders"}, Status: databaseStatus{Conditions: []metav1.Condition{provisioned}}}
	require.NoError(t, s.create(dbToU(t, created), "database-operator-v0"))
	withBackup := dbFromU(t, s.get())
	withBackup.Status.Conditions = append(withBackup.Status.Conditions, backedUp)
	require.NoError(t, s.update(dbToU(t, withBackup), "backup-operator", "status"))

	read := dbFromU(t, s.get())
	ready := metav1.Condition{Type: "Ready", Status: metav1.ConditionFalse, Reason: "Provisioning", Message: "waiting for the volume", LastTransitionTime: at}
	o := &conditions.Outcome{Kind: "Database", Namespace: "team-a", Name: "orders", UID: read.UID,
		Conditions: []metav1.Condition{ready, backedUp}, Owned: []metav1.Condition{ready}, Write: true, Finalizer: conditions.FinalizerAdd}
	p, err := writeplan.For(read, o, databaseStatus{Endpoint: "orders.team-a:5432"}, databaseWrite)
	require.NoError(t, err)
	require.Equal(t, "Database", p.Kind)
	require.Len(t, p.Requests, 3, bodies(p))
	assert.Equal(t, []writeplan.Step{writeplan.StepRemoveConditions, writeplan.StepApplyStatus, writeplan.StepAddFinalizer},
		[]writeplan.Step{p.Requests[0].Step, p.Requests[1].Step, p.Requests[2].Step})
	assert.Contains(t, string(p.Requests[1].Body), `{"apiVersion":"example.com/v1","kind":"Database",`)
	assert.JSONEq(t, `[{"op":"add","path":"/metadata/finalizers","value":["databases.example.com/finalizer"]}]`, string(p.Requests[2].Body))
	for _, r := range p.Requests {
		assert.Equal(t, "database-operator", r.FieldManager, r.Step)
		require.NoError(t, s.carry(r), r.Step)
	}

	after := dbFromU(t, s.get())
	assert.True(t, equalByType(byType(o.Conditions), byType(after.Status.Conditions)), "stored %v", after.Status.Conditions)
	assert.Equal(t, "orders.team-a:5432", after.Status.Endpoint)
	assert.Equal(t, []string{databaseFinalizer}, after.Finalizers)
}

// TestFor_RefusesAnIncompleteKind: Options without a kind, or with one
// missing a field, is refused with the field named, before anything
// else is looked at.
func TestFor_RefusesAnIncompleteKind(t *testing.T) {
	b := &akv1.Binding{ObjectMeta: metav1.ObjectMeta{Namespace: "n", Name: "b"}}
	o := &conditions.Outcome{Kind: akv1.KindBinding, Namespace: "n", Name: "b"}
	for name, tc := range map[string]struct {
		kind writeplan.Kind
		want string
	}{
		"no kind at all":      {writeplan.Kind{}, "Options.Kind is incomplete: APIVersion is empty"},
		"no apiVersion":       {writeplan.Kind{Kind: akv1.KindBinding}, "Options.Kind is incomplete: APIVersion is empty"},
		"no kind name":        {writeplan.Kind{APIVersion: akv1.APIVersion}, "Options.Kind is incomplete: Kind is empty"},
		"a bad apiVersion":    {writeplan.Kind{APIVersion: "a/b/c", Kind: akv1.KindBinding}, `Options.Kind.APIVersion "a/b/c" is not a group/version`},
		"a finalizer, no api": {writeplan.Kind{Kind: akv1.KindBinding, Finalizer: "x.example/f"}, "APIVersion is empty"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := writeplan.For(b, o, nil, writeplan.Options{FieldManager: "m", Kind: tc.kind})
			require.ErrorContains(t, err, tc.want)
			if tc.kind.APIVersion == "" || tc.kind.Kind == "" {
				assert.ErrorIs(t, err, writeplan.ErrNoKind)
			} else {
				assert.NotErrorIs(t, err, writeplan.ErrNoKind)
			}
		})
	}
	_, err := writeplan.For(nil, nil, nil, writeplan.Options{FieldManager: "m"})
	require.ErrorIs(t, err, writeplan.ErrNoKind, "the kind is checked before the object")
}

// TestFor_RefusesAnOutcomeOfAnotherKind: an outcome for another kind
// than the one declared is not planned, even for an object of the
// right name: its apply would carry the wrong kind.
func TestFor_RefusesAnOutcomeOfAnotherKind(t *testing.T) {
	read := &database{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "orders"}}
	o := &conditions.Outcome{Kind: "Cache", Namespace: "team-a", Name: "orders", Write: true}
	_, err := writeplan.For(read, o, databaseStatus{}, databaseWrite)
	require.ErrorContains(t, err, `the outcome is for kind "Cache" and Options.Kind.Kind is "Database"`)
}
