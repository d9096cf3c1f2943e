package crd_test

import (
	"encoding/json"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/managedfields/managedfieldstest"
	"sigs.k8s.io/yaml"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	finv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/config/crd"
)

func toUnstructured(t *testing.T, obj runtime.Object) *unstructured.Unstructured {
	t.Helper()
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	require.NoError(t, err)
	return &unstructured.Unstructured{Object: m}
}

func cond(typ string, status metav1.ConditionStatus, reason string) metav1.Condition {
	return metav1.Condition{Type: typ, Status: status, Reason: reason, Message: typ + " is " + string(status),
		LastTransitionTime: metav1.Unix(1_700_000_000, 0)}
}

func binding(conds ...metav1.Condition) *akv1.Binding {
	b := &akv1.Binding{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "support"}}
	b.SetGroupVersionKind(akv1.GroupVersion.WithKind(akv1.KindBinding))
	b.Status.Conditions = conds
	return b
}

// ownersByType maps each condition type to the managers whose
// managedFields entry names its key.
func ownersByType(t *testing.T, entries []metav1.ManagedFieldsEntry) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, e := range entries {
		var fields struct {
			Status struct {
				Conditions map[string]json.RawMessage `json:"f:conditions"`
			} `json:"f:status"`
		}
		require.NoError(t, json.Unmarshal(e.FieldsV1.GetRawBytes(), &fields))
		for key := range fields.Status.Conditions {
			var k struct{ Type string }
			if strings.HasPrefix(key, "k:") && json.Unmarshal([]byte(key[2:]), &k) == nil {
				out[k.Type] = append(out[k.Type], e.Manager)
			}
		}
	}
	for _, m := range out {
		slices.Sort(m)
	}
	return out
}

func conditionTypes(t *testing.T, obj runtime.Object) []string {
	t.Helper()
	list, _, err := unstructured.NestedSlice(obj.(*unstructured.Unstructured).Object, "status", "conditions")
	require.NoError(t, err)
	var out []string
	for _, c := range list {
		out = append(out, c.(map[string]any)["type"].(string))
	}
	return out
}

// TestStatusApplyOwnsEachConditionByType carries out server-side applies
// and an update of a Binding's status through managedfields with the
// embedded schema: each condition type gets its own owner, an apply that
// drops a type removes it only when no one else owns it, and another
// writer's condition survives our applies.
func TestStatusApplyOwnsEachConditionByType(t *testing.T) {
	tc, err := crd.TypeConverter()
	require.NoError(t, err)
	gvk := akv1.GroupVersion.WithKind(akv1.KindBinding)
	fm := managedfieldstest.NewTestFieldManagerSubresource(tc, gvk, "status")

	// Another controller writes its own condition and a copy of ours.
	require.NoError(t, fm.Update(toUnstructured(t, binding(
		cond("BackendReachable", metav1.ConditionTrue, "OK"),
		cond("Audited", metav1.ConditionTrue, "Checked"),
	)), "auditor"))

	// We apply ours: BackendReachable becomes co-owned, Audited is not ours.
	require.NoError(t, fm.Apply(toUnstructured(t, binding(
		cond("Ready", metav1.ConditionTrue, "Bound"),
		cond("BackendReachable", metav1.ConditionTrue, "OK"),
		cond("ChannelJoined", metav1.ConditionTrue, "Joined"),
	)), "condengine", true))
	require.Equal(t, map[string][]string{
		"Audited":          {"auditor"},
		"BackendReachable": {"auditor", "condengine"},
		"ChannelJoined":    {"condengine"},
		"Ready":            {"condengine"},
	}, ownersByType(t, fm.ManagedFields()))

	// We stop writing BackendReachable and ChannelJoined: the one only we
	// owned goes, the co-owned one stays, the other writer's stays.
	require.NoError(t, fm.Apply(toUnstructured(t, binding(
		cond("Ready", metav1.ConditionFalse, "NotServed"),
	)), "condengine", true))
	require.ElementsMatch(t, []string{"Audited", "BackendReachable", "Ready"}, conditionTypes(t, fm.Live()))

	list, _, _ := unstructured.NestedSlice(fm.Live().(*unstructured.Unstructured).Object, "status", "conditions")
	for _, c := range list {
		if c := c.(map[string]any); c["type"] == "Ready" {
			require.Equal(t, "False", c["status"])
		}
	}
}

// TestFinalizersAreASet checks that metadata has the API server's
// semantics: two managers' finalizers are merged, not replaced.
func TestFinalizersAreASet(t *testing.T) {
	tc, err := crd.TypeConverter()
	require.NoError(t, err)
	gvk := finv1.GroupVersion.WithKind("Subscription")
	fm := managedfieldstest.NewTestFieldManager(tc, gvk)
	sub := func(fin string) *unstructured.Unstructured {
		s := &finv1.Subscription{ObjectMeta: metav1.ObjectMeta{Namespace: "n", Name: "s", Finalizers: []string{fin}}}
		s.SetGroupVersionKind(gvk)
		return toUnstructured(t, s)
	}
	require.NoError(t, fm.Apply(sub("a.example/one"), "one", false))
	require.NoError(t, fm.Apply(sub("b.example/two"), "two", false))
	live := fm.Live().(*unstructured.Unstructured)
	require.Equal(t, []string{"a.example/one", "b.example/two"}, live.GetFinalizers())
}

// TestEveryKindConverts checks that the converter knows every kind in FS
// and accepts an object of it carrying labels, annotations and an owner.
func TestEveryKindConverts(t *testing.T) {
	tc, err := crd.TypeConverter()
	require.NoError(t, err)
	files, err := fs.Glob(crd.FS, "*_*.yaml")
	require.NoError(t, err)
	require.Len(t, files, 8)
	for _, f := range files {
		raw, err := crd.FS.ReadFile(f)
		require.NoError(t, err)
		var d struct {
			Spec struct {
				Group    string
				Names    struct{ Kind string }
				Versions []struct{ Name string }
			}
		}
		require.NoError(t, yaml.Unmarshal(raw, &d), f)
		for _, v := range d.Spec.Versions {
			u := &unstructured.Unstructured{}
			u.SetAPIVersion(d.Spec.Group + "/" + v.Name)
			u.SetKind(d.Spec.Names.Kind)
			u.SetName("x")
			u.SetLabels(map[string]string{"a": "b"})
			u.SetAnnotations(map[string]string{"c": "d"})
			u.SetOwnerReferences([]metav1.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: "o", UID: "u1"}})
			_, err := tc.ObjectToTyped(u)
			require.NoError(t, err, f)
		}
	}
}

// TestUndeclaredStatusFieldIsRefused pins the decision that the converter,
// like a v1 CRD, keeps unknown fields only where the schema says so.
func TestUndeclaredStatusFieldIsRefused(t *testing.T) {
	tc, err := crd.TypeConverter()
	require.NoError(t, err)
	u := toUnstructured(t, binding(cond("Ready", metav1.ConditionTrue, "Bound")))
	require.NoError(t, unstructured.SetNestedField(u.Object, "x", "status", "bogus"))
	_, err = tc.ObjectToTyped(u)
	require.ErrorContains(t, err, "bogus")
	require.NoError(t, unstructured.SetNestedField(u.Object, "x", "spec", "bogus"))
	unstructured.RemoveNestedField(u.Object, "status", "bogus")
	_, err = tc.ObjectToTyped(u)
	require.NoError(t, err, "spec preserves unknown fields")
}
