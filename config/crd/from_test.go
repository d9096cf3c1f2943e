package crd_test

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apimachinery/pkg/util/managedfields/managedfieldstest"

	"github.com/condengine/condengine/config/crd"
	"github.com/condengine/condengine/manifest"
)

// databaseCRD is the definition of a kind the module knows nothing of,
// as controller-gen would write it, trimmed to what a status writer
// touches: conditions a list keyed by type.
const databaseCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: databases.example.com
spec:
  group: example.com
  names:
    kind: Database
    listKind: DatabaseList
    plural: databases
    singular: database
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          apiVersion:
            type: string
          kind:
            type: string
          metadata:
            type: object
          spec:
            type: object
            properties:
              engine:
                type: string
          status:
            type: object
            properties:
              conditions:
                type: array
                items:
                  type: object
                  required: [type, status, lastTransitionTime, reason, message]
                  properties:
                    type:
                      type: string
                    status:
                      type: string
                    observedGeneration:
                      type: integer
                      format: int64
                    lastTransitionTime:
                      type: string
                      format: date-time
                    reason:
                      type: string
                    message:
                      type: string
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [type]
`

// databaseFS holds the definition as a directory of manifests usually
// does: beside a kustomization, a Namespace in the same stream, and a
// file that is no manifest.
func databaseFS() fstest.MapFS {
	return fstest.MapFS{
		"config/crd/kustomization.yaml":         {Data: []byte("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- example.com_databases.yaml\n")},
		"config/crd/example.com_databases.yaml": {Data: []byte("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: databases\n---\n" + databaseCRD)},
		"config/crd/README.md":                  {Data: []byte("# not a manifest: [\n")},
	}
}

var databaseGVK = schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Database"}

// database is a Database with the given conditions, as an applier sends it.
func database(conds ...metav1.Condition) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetGroupVersionKind(databaseGVK)
	u.SetNamespace("team-a")
	u.SetName("orders")
	list := make([]any, 0, len(conds))
	for _, c := range conds {
		m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&c)
		if err != nil {
			panic(err)
		}
		list = append(list, m)
	}
	if err := unstructured.SetNestedSlice(u.Object, list, "status", "conditions"); err != nil {
		panic(err)
	}
	return u
}

// applyBoth lets two controllers each apply their own condition to a
// Database's status through a field manager using tc, and returns the
// condition types stored.
func applyBoth(t *testing.T, tc managedfields.TypeConverter) []string {
	t.Helper()
	fm := managedfieldstest.NewTestFieldManagerSubresource(tc, databaseGVK, "status")
	require.NoError(t, fm.Apply(database(cond("Provisioned", metav1.ConditionTrue, "Created")), "database-operator", true))
	require.NoError(t, fm.Apply(database(cond("example.com/Backedup", metav1.ConditionTrue, "Snapshot")), "backup-operator", true))
	// The first controller applies again, its condition changed: the
	// other's must stay.
	require.NoError(t, fm.Apply(database(cond("Provisioned", metav1.ConditionFalse, "Failed")), "database-operator", true))
	return conditionTypes(t, fm.Live())
}

// TestTypeConverterFrom_KeepsEachWritersConditionOnAThirdKind: with the
// converter built from a definition the module does not ship, two
// managers applying different conditions to one Database keep each
// other's, as on an API server. A deduced schema, the fake client's
// default, loses the other's condition: the test would catch a
// converter that did not type the kind.
func TestTypeConverterFrom_KeepsEachWritersConditionOnAThirdKind(t *testing.T) {
	tc, err := crd.TypeConverterFrom(databaseFS())
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"Provisioned", "example.com/Backedup"}, applyBoth(t, tc))

	assert.Equal(t, []string{"Provisioned"}, applyBoth(t, managedfields.NewDeducedTypeConverter()),
		"without the schema, an apply replaces the whole list")
}

// TestTypeConverterFrom_ReadsListsAndJSON: a definition in a List, as
// kubectl get -o yaml prints it, and one in a JSON file are read.
func TestTypeConverterFrom_ReadsListsAndJSON(t *testing.T) {
	list := "apiVersion: v1\nkind: List\nitems:\n- " + strings.ReplaceAll(strings.TrimSuffix(databaseCRD, "\n"), "\n", "\n  ") + "\n"
	tc, err := crd.TypeConverterFrom(fstest.MapFS{"crds.yml": {Data: []byte(list)}})
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"Provisioned", "example.com/Backedup"}, applyBoth(t, tc))

	js := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"caches.example.com"},` +
		`"spec":{"group":"example.com","names":{"kind":"Cache","plural":"caches"},"scope":"Namespaced",` +
		`"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`
	tc, err = crd.TypeConverterFrom(fstest.MapFS{"cache.json": {Data: []byte(js)}})
	require.NoError(t, err, "a schema that declares no properties keeps any field")
	u := &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{"size": "1Gi"}}}
	u.SetGroupVersionKind(schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Cache"})
	u.SetName("c")
	u.SetFinalizers([]string{"a.example/x"})
	_, err = tc.ObjectToTyped(u)
	require.NoError(t, err)
}

// TestTypeConverterFrom_Refuses: each problem names the file, the line
// and the field, and every problem of the FS is reported at once.
func TestTypeConverterFrom_Refuses(t *testing.T) {
	v1 := func(edit func(string) string) []byte { return []byte(edit(databaseCRD)) }
	for name, tc := range map[string]struct {
		fsys fstest.MapFS
		want []string
	}{
		"not YAML":      {fstest.MapFS{"a/bad.yaml": {Data: []byte("kind: CustomResourceDefinition\nspec: [\n")}}, []string{"a/bad.yaml", "line"}},
		"not an object": {fstest.MapFS{"list.yaml": {Data: []byte("- a\n- b\n")}}, []string{"list.yaml", "document 1", "object"}},
		"v1beta1": {fstest.MapFS{"old.yaml": {Data: v1(func(s string) string {
			return strings.Replace(s, "apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1", 1)
		})}}, []string{"old.yaml", "line 1", `apiVersion: "apiextensions.k8s.io/v1beta1" is not read`}},
		"no group": {fstest.MapFS{"g.yaml": {Data: v1(func(s string) string { return strings.Replace(s, "  group: example.com\n", "", 1) })}},
			[]string{"g.yaml", "line 5", "spec.group: missing"}},
		"no kind": {fstest.MapFS{"k.yaml": {Data: v1(func(s string) string { return strings.Replace(s, "    kind: Database\n", "", 1) })}},
			[]string{"k.yaml", "line 7", "spec.names.kind: missing"}},
		"no version": {fstest.MapFS{"v.yaml": {Data: []byte("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: x\nspec:\n  group: g\n  names:\n    kind: X\n")}},
			[]string{"v.yaml", "line 5", "spec.versions: no version"}},
		"no version name": {fstest.MapFS{"n.yaml": {Data: v1(func(s string) string { return strings.Replace(s, "  - name: v1\n    served", "  - served", 1) })}},
			[]string{"n.yaml", "line 14", "spec.versions[0].name: missing"}},
		"no schema": {fstest.MapFS{"s.yaml": {Data: v1(func(s string) string { return s[:strings.Index(s, "    schema:")] })}},
			[]string{"s.yaml", "line 14", "spec.versions[0].schema.openAPIV3Schema: missing"}},
		"properties not an object": {fstest.MapFS{"p.yaml": {Data: v1(func(s string) string {
			return s[:strings.Index(s, "        properties:")] + "        properties: [a]\n"
		})}}, []string{"p.yaml", "line 22", "spec.versions[0].schema.openAPIV3Schema.properties: must be an object"}},
		"versions not a list": {fstest.MapFS{"l.yaml": {Data: []byte("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: x\nspec:\n  group: g\n  names:\n    kind: X\n  versions: v1\n")}},
			[]string{"l.yaml", "line 9", "spec.versions"}},
		"a schema of the wrong shape": {fstest.MapFS{"w.yaml": {Data: v1(func(s string) string {
			return strings.Replace(s, "              engine:\n                type: string\n", "              engine:\n                type: [string]\n                required: yes\n", 1)
		})}}, []string{"w.yaml", "line 20", "spec.versions[0].schema.openAPIV3Schema: ", "/properties/spec/properties/engine/required"}},
		"one kind defined twice": {fstest.MapFS{"one.yaml": {Data: []byte(databaseCRD)}, "two/again.yaml": {Data: []byte(databaseCRD)}},
			[]string{"two/again.yaml", "line 14", "spec.versions[0]: Database example.com/v1 is also defined in one.yaml, document 1"}},
		"no definition": {fstest.MapFS{"kustomization.yaml": {Data: []byte("kind: Kustomization\n")}, "crd.txt": {Data: []byte(databaseCRD)}},
			[]string{"no CustomResourceDefinition"}},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := crd.TypeConverterFrom(tc.fsys)
			require.Error(t, err)
			for _, w := range tc.want {
				assert.ErrorContains(t, err, w)
			}
		})
	}
}

// TestTypeConverterFrom_ReportsEveryFile: two bad files give two
// located errors, in file order.
func TestTypeConverterFrom_ReportsEveryFile(t *testing.T) {
	_, err := crd.TypeConverterFrom(fstest.MapFS{
		"b.yaml": {Data: []byte("kind: CustomResourceDefinition\napiVersion: x/v1\n")},
		"a.yaml": {Data: []byte("x: [\n")},
	})
	errs := manifest.Errors(err)
	require.Len(t, errs, 2, "%v", err)
	assert.Equal(t, "a.yaml", errs[0].File)
	assert.Equal(t, "b.yaml", errs[1].File)
	assert.Equal(t, 2, errs[1].Line, "the apiVersion's line")
}

func TestTypeConverterFrom_NilAndUnreadableFS(t *testing.T) {
	_, err := crd.TypeConverterFrom(nil)
	require.ErrorContains(t, err, "nil FS")
	_, err = crd.TypeConverterFrom(badFS{})
	require.ErrorContains(t, err, "crd: ")
}

// badFS fails every Open.
type badFS struct{}

func (badFS) Open(string) (fs.File, error) { return nil, errors.New("disk on fire") }

// TestTypeConverterFrom_TypesApiVersionAndKind: a structural schema may
// leave apiVersion and kind out, as the API server declares them itself;
// an object carrying them still converts.
func TestTypeConverterFrom_TypesApiVersionAndKind(t *testing.T) {
	trimmed := strings.Replace(databaseCRD, "          apiVersion:\n            type: string\n          kind:\n            type: string\n", "", 1)
	require.NotEqual(t, databaseCRD, trimmed)
	tc, err := crd.TypeConverterFrom(fstest.MapFS{"db.yaml": {Data: []byte(trimmed)}})
	require.NoError(t, err)
	_, err = tc.ObjectToTyped(database(cond("Ready", metav1.ConditionTrue, "Up")))
	require.NoError(t, err)
}
