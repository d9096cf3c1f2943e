package e2e_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/randfill"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	bkubectl "github.com/condengine/condengine/binding/kubectl"
	"github.com/condengine/condengine/conformance"
)

func crdByKind(t *testing.T, kind string) *apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	for _, crd := range loadCRDs(t) {
		if crd.Spec.Names.Kind == kind {
			return crd
		}
	}
	t.Fatalf("no CRD for kind %s", kind)
	return nil
}

// TestCRDs_BindingColumnsAreTheLibrarys: the manifest's printer columns are
// the ones binding/kubectl renders its table from.
func TestCRDs_BindingColumnsAreTheLibrarys(t *testing.T) {
	var got []bkubectl.Column
	for _, c := range crdByKind(t, akv1.KindBinding).Spec.Versions[0].AdditionalPrinterColumns {
		got = append(got, bkubectl.Column{Name: c.Name, Type: c.Type, JSONPath: c.JSONPath, Description: c.Description, Priority: c.Priority})
	}
	if diff := cmp.Diff(bkubectl.PrinterColumns(), got); diff != "" {
		t.Errorf("Binding printer columns (-library +manifest):\n%s", diff)
	}
}

// TestCRDs_EveryVocabularyConditionPassesTheSchema: each (type, status,
// reason) a vocabulary may write fits the condition schema of its kind's
// CRD, so no write of the engine is refused by the API server.
func TestCRDs_EveryVocabularyConditionPassesTheSchema(t *testing.T) {
	for _, v := range conformance.Vocabularies(conformance.SeedSystems()...) {
		crd := crdByKind(t, v.Kind())
		require.Equal(t, v.APIVersion(), crd.Spec.Group+"/"+crd.Spec.Versions[0].Name, v.Kind())
		item := crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["status"].Properties["conditions"].Items.Schema
		typePattern := regexp.MustCompile(item.Properties["type"].Pattern)
		reasonPattern := regexp.MustCompile(item.Properties["reason"].Pattern)
		var statuses []string
		for _, e := range item.Properties["status"].Enum {
			var s string
			require.NoError(t, json.Unmarshal(e.Raw, &s))
			statuses = append(statuses, s)
		}
		for _, typ := range v.Types() {
			require.Regexp(t, typePattern, typ.Name, "%s type", v.Kind())
			require.LessOrEqual(t, int64(len(typ.Name)), *item.Properties["type"].MaxLength)
			for _, r := range typ.Reasons {
				require.Regexp(t, reasonPattern, r.Reason, "%s %s reason", v.Kind(), typ.Name)
				require.LessOrEqual(t, int64(len(r.Reason)), *item.Properties["reason"].MaxLength)
				require.Contains(t, statuses, string(r.Status))
			}
		}
	}
}

// TestCRDs_KeepEveryFieldOfTheLibrarysTypes fills each library type
// completely, encodes it as the API server would receive it, and walks it
// against the CRD's schema: every field must be declared with a matching
// type or sit under x-kubernetes-preserve-unknown-fields, or the API server
// would prune it or refuse the object.
func TestCRDs_KeepEveryFieldOfTheLibrarysTypes(t *testing.T) {
	cases := []struct {
		kind string
		obj  any
	}{
		{akv1.KindBinding, &akv1.Binding{}},
		{akv1.KindAgentBackend, &akv1.AgentBackend{}},
		{akv1.KindChatConnection, &akv1.ChatConnection{}},
		{"PriceBook", &finopsv1.PriceBook{}},
		{"Offering", &finopsv1.Offering{}},
		{"Subscription", &finopsv1.Subscription{}},
		{"CostJob", &finopsv1.CostJob{}},
		{"FinOpsProvider", &finopsv1.FinOpsProvider{}},
	}
	fill := randfill.NewWithSeed(1).NilChance(0).NumElements(1, 1).Funcs(
		func(tm *metav1.Time, _ randfill.Continue) { *tm = metav1.NewTime(time.Unix(1_700_000_000, 0)) },
		func(om *metav1.ObjectMeta, _ randfill.Continue) { *om = metav1.ObjectMeta{Name: "x", Namespace: "y"} },
		func(tm *metav1.TypeMeta, _ randfill.Continue) {},
		func(r *json.RawMessage, _ randfill.Continue) { *r = json.RawMessage(`{"k":"v"}`) },
	)
	for _, c := range cases {
		t.Run(c.kind, func(t *testing.T) {
			fill.Fill(c.obj)
			raw, err := json.Marshal(c.obj)
			require.NoError(t, err)
			var doc map[string]any
			require.NoError(t, json.Unmarshal(raw, &doc))
			root := crdByKind(t, c.kind).Spec.Versions[0].Schema.OpenAPIV3Schema
			var problems []string
			for _, top := range []string{"spec", "status"} {
				if v, ok := doc[top]; ok {
					prop, declared := root.Properties[top]
					if !declared {
						problems = append(problems, top+": not in the schema")
						continue
					}
					problems = append(problems, walk(top, v, &prop)...)
				}
			}
			sort.Strings(problems)
			require.Empty(t, problems)
		})
	}
}

// walk reports the paths under v that schema s would prune or refuse by type.
func walk(path string, v any, s *apiextensionsv1.JSONSchemaProps) []string {
	if s.XIntOrString {
		return nil
	}
	switch v := v.(type) {
	case map[string]any:
		if s.Type != "object" {
			return []string{fmt.Sprintf("%s: an object where the schema has %q", path, s.Type)}
		}
		var out []string
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if p, ok := s.Properties[k]; ok {
				out = append(out, walk(path+"."+k, v[k], &p)...)
			} else if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
				out = append(out, walk(path+"."+k, v[k], s.AdditionalProperties.Schema)...)
			} else if s.XPreserveUnknownFields == nil || !*s.XPreserveUnknownFields {
				out = append(out, path+"."+k+": not in the schema, would be pruned")
			}
		}
		return out
	case []any:
		if s.Type != "array" {
			return []string{fmt.Sprintf("%s: a list where the schema has %q", path, s.Type)}
		}
		var out []string
		for i, e := range v {
			out = append(out, walk(fmt.Sprintf("%s[%d]", path, i), e, s.Items.Schema)...)
		}
		return out
	case string:
		return typeIs(path, s, "string")
	case bool:
		return typeIs(path, s, "boolean")
	case float64:
		if v == float64(int64(v)) {
			return typeIs(path, s, "integer", "number")
		}
		return typeIs(path, s, "number")
	case nil:
		if s.Nullable {
			return nil
		}
		return []string{path + ": null where the schema is not nullable"}
	}
	return []string{fmt.Sprintf("%s: unexpected %T", path, v)}
}

func typeIs(path string, s *apiextensionsv1.JSONSchemaProps, ok ...string) []string {
	if s.Type == "" || slices.Contains(ok, s.Type) {
		return nil
	}
	return []string{fmt.Sprintf("%s: a %s where the schema has %q", path, ok[0], s.Type)}
}
