package host_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"maps"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/condengine/condengine/config/crd"
	"github.com/condengine/condengine/examples/database/api"
	"github.com/condengine/condengine/examples/database/dbsystem"
	"github.com/condengine/condengine/examples/database/host"
)

var (
	key = types.NamespacedName{Namespace: "shop", Name: "orders"}
	t0  = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
)

// fakeClient is controller-runtime's fake client holding a Database and
// its Secret, with server-side apply typed by tc.
func fakeClient(t *testing.T, tc managedfields.TypeConverter) client.Client {
	t.Helper()
	db := &api.Database{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name, Generation: 1},
		Spec: api.DatabaseSpec{Engine: "postgres", SecretRef: "orders-creds"}}
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: "orders-creds"}}
	return fake.NewClientBuilder().WithScheme(host.Scheme()).WithStatusSubresource(&api.Database{}).WithReturnManagedFields().
		WithTypeConverters(tc, managedfields.NewDeducedTypeConverter()).WithObjects(db, secret).Build()
}

// crdConverter is the type converter of the Database's CRD.
func crdConverter(t *testing.T) managedfields.TypeConverter {
	t.Helper()
	crds, err := fs.Sub(api.CRDs, "crds")
	if err != nil {
		t.Fatal(err)
	}
	tc, err := crd.TypeConverterFrom(crds)
	if err != nil {
		t.Fatal(err)
	}
	return tc
}

// backupWrites has another controller apply its own condition to the
// Database's status under its own field manager.
func backupWrites(t *testing.T, c client.Client) {
	t.Helper()
	body, err := json.Marshal(map[string]any{"apiVersion": api.APIVersion, "kind": api.Kind,
		"metadata": map[string]any{"namespace": key.Namespace, "name": key.Name},
		"status": map[string]any{"conditions": []metav1.Condition{{Type: "BackedUp", Status: metav1.ConditionTrue, Reason: "Nightly",
			Message: "", LastTransitionTime: metav1.NewTime(t0.Add(-time.Hour))}}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Status().Patch(context.Background(), &api.Database{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}},
		client.RawPatch(types.ApplyPatchType, body), client.FieldOwner("backup-operator")); err != nil {
		t.Fatal(err)
	}
}

// reconcileAt runs the host once at t0 with obs observed.
func reconcileAt(t *testing.T, c client.Client, obs dbsystem.Observed) {
	t.Helper()
	r := &host.Reconciler{Client: c, Now: func() time.Time { return t0 }, Observed: func() (dbsystem.Observed, error) { return obs, nil }}
	if _, err := r.Reconcile(context.Background(), reconcile.Request{NamespacedName: key}); err != nil {
		t.Fatal(err)
	}
}

func get(t *testing.T, c client.Client) *api.Database {
	t.Helper()
	db := &api.Database{}
	if err := c.Get(context.Background(), key, db); err != nil {
		t.Fatal(err)
	}
	return db
}

func summary(conds []metav1.Condition) []string {
	var out []string
	for _, c := range conds {
		out = append(out, c.Type+"="+string(c.Status)+"/"+c.Reason)
	}
	return out
}

// The host's write plans, carried out on the fake client with real
// server-side apply (typed by the Database's CRD), write our two
// conditions and the finalizer and leave the backup controller's
// condition and its ownership alone, from the first write to the
// release of the finalizer.
func TestWritePlan_KeepsAnotherWritersCondition(t *testing.T) {
	c := fakeClient(t, crdConverter(t))
	backupWrites(t, c)
	probe := dbsystem.Observed{Probes: []dbsystem.Probe{{Namespace: key.Namespace, Name: key.Name, Generation: 1}}}
	reconcileAt(t, c, probe)
	db := get(t, c)
	want := []string{"BackedUp=True/Nightly", "Provisioned=True/Created", "Ready=True/Connected"}
	if got := summary(db.Status.Conditions); !sameSet(got, want) {
		t.Fatalf("conditions %v, want %v", got, want)
	}
	if len(db.Finalizers) != 1 || db.Finalizers[0] != api.Finalizer {
		t.Fatalf("finalizers %v, want ours", db.Finalizers)
	}
	// Each condition is owned by the manager that wrote it, and by no
	// other: a later apply of either keeps the other's.
	owned := map[string]string{}
	for _, m := range db.ManagedFields {
		for _, typ := range []string{"BackedUp", "Provisioned", "Ready"} {
			if m.FieldsV1 != nil && strings.Contains(m.FieldsV1.GetRawString(), `k:{\"type\":\"`+typ+`\"}`) {
				owned[typ] += m.Manager + " "
			}
		}
	}
	if want := map[string]string{"BackedUp": "backup-operator ", "Provisioned": "database-operator ", "Ready": "database-operator "}; !maps.Equal(owned, want) {
		t.Errorf("condition owners %q, want %q", owned, want)
	}

	// Deleted: the status says Deprovisioning and the finalizer stays
	// until the database is dropped; then it goes, and the object with it.
	if err := c.Delete(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	reconcileAt(t, c, probe)
	db = get(t, c)
	want = []string{"BackedUp=True/Nightly", "Provisioned=False/Deprovisioning", "Ready=False/NotProvisioned"}
	if got := summary(db.Status.Conditions); !sameSet(got, want) || len(db.Finalizers) != 1 {
		t.Fatalf("deleting: conditions %v, finalizers %v; want %v and ours", got, db.Finalizers, want)
	}
	reconcileAt(t, c, dbsystem.Observed{Dropped: []string{key.String()}})
	if err := c.Get(context.Background(), key, &api.Database{}); !apierrors.IsNotFound(err) {
		t.Fatalf("after the drop: %v, want the Database gone", err)
	}
}

// The check above can fail: with a type converter that does not know
// the CRD's list of conditions is a map keyed by type, the same plan's
// apply takes the backup controller's condition away.
func TestWritePlan_WithoutTheCRDTheOtherConditionGoes(t *testing.T) {
	c := fakeClient(t, managedfields.NewDeducedTypeConverter())
	backupWrites(t, c)
	reconcileAt(t, c, dbsystem.Observed{})
	if got := summary(get(t, c).Status.Conditions); sameSet(got, []string{"BackedUp=True/Nightly", "Provisioned=True/Created", "Ready=Unknown/Probing"}) {
		t.Fatalf("the other writer's condition survived an untyped apply: %v; the test above would not tell", got)
	}
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[string]int{}
	for _, x := range a {
		seen[x]++
	}
	for _, x := range b {
		if seen[x] == 0 {
			return false
		}
		seen[x]--
	}
	return true
}
