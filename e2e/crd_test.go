package e2e_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/condengine/condengine/e2e/internal/crds"
)

// column is a printer column, named as kubectl prints its header. Priority
// 1 columns show only with -o wide.
type column struct {
	Header, JSONPath, Type string
	Priority               int32
}

// wantCRD is what the issue and the spec fix for one kind.
type wantCRD struct {
	Group, Kind, Plural, Scope string
	ShortNames                 []string
	Columns                    []column
	Conditions                 bool // status.conditions is a map-list keyed by type
}

var age = column{"AGE", ".metadata.creationTimestamp", "date", 0}

var wantCRDs = []wantCRD{
	{"agentkourier.dev", "AgentBackend", "agentbackends", "Namespaced", []string{"akbackend"},
		[]column{{"URL", ".spec.url", "string", 1}, age}, true},
	{"agentkourier.dev", "Binding", "bindings", "Namespaced", []string{"akbinding"}, []column{
		{"READY", `.status.conditions[?(@.type=="Ready")].status`, "string", 0},
		{"REASON", `.status.conditions[?(@.type=="Ready")].reason`, "string", 0},
		{"CHANNEL", ".spec.chat.channel", "string", 0},
		age,
	}, true},
	{"agentkourier.dev", "ChatConnection", "chatconnections", "Namespaced", []string{"akconnection"},
		[]column{{"PLATFORM", ".spec.platform", "string", 0}, {"BROKER", ".spec.broker", "string", 1}, age}, true},
	{"finops.stakater.com", "CostJob", "costjobs", "Namespaced", nil,
		[]column{{"TYPE", ".spec.type", "string", 0}, {"LAST STATUS", ".status.lastExecutionStatus", "string", 0}, age}, false},
	{"finops.stakater.com", "FinOpsProvider", "finopsproviders", "Cluster", nil, []column{age}, false},
	{"finops.stakater.com", "Offering", "offerings", "Namespaced", nil,
		[]column{{"READY", ".status.ready", "string", 0}, age}, true},
	{"finops.stakater.com", "PriceBook", "pricebooks", "Namespaced", nil, []column{
		{"ACTIVE", ".status.active", "boolean", 0},
		{"READY", ".status.ready", "string", 0},
		age,
	}, true},
	{"finops.stakater.com", "Subscription", "subscriptions", "Namespaced", nil,
		[]column{{"READY", ".status.ready", "string", 0}, age}, true},
}

func loadCRDs(t *testing.T) []*apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	dir, err := crds.Dir()
	require.NoError(t, err)
	got, err := crds.Load(dir)
	require.NoError(t, err)
	return got
}

func TestCRDs_EveryKindWithItsNamesScopeAndColumns(t *testing.T) {
	got := loadCRDs(t)
	require.Len(t, got, len(wantCRDs))
	for i, want := range wantCRDs {
		crd := got[i]
		t.Run(want.Kind, func(t *testing.T) {
			require.Equal(t, want.Plural+"."+want.Group, crd.Name)
			require.Equal(t, want.Group, crd.Spec.Group)
			require.Equal(t, want.Kind, crd.Spec.Names.Kind)
			require.Equal(t, want.Plural, crd.Spec.Names.Plural)
			require.Equal(t, strings.ToLower(want.Kind), crd.Spec.Names.Singular)
			require.Equal(t, want.ShortNames, crd.Spec.Names.ShortNames)
			require.Equal(t, apiextensionsv1.ResourceScope(want.Scope), crd.Spec.Scope)
			require.Len(t, crd.Spec.Versions, 1)
			v := crd.Spec.Versions[0]
			require.Equal(t, "v1alpha1", v.Name)
			require.True(t, v.Served && v.Storage)
			require.NotNil(t, v.Subresources, "status subresource")
			require.NotNil(t, v.Subresources.Status, "status subresource")

			var cols []column
			for _, c := range v.AdditionalPrinterColumns {
				cols = append(cols, column{strings.ToUpper(c.Name), c.JSONPath, c.Type, c.Priority})
			}
			if diff := cmp.Diff(want.Columns, cols); diff != "" {
				t.Errorf("printer columns (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCRDs_ConditionsAreAMapListKeyedByType(t *testing.T) {
	for i, crd := range loadCRDs(t) {
		want := wantCRDs[i]
		t.Run(want.Kind, func(t *testing.T) {
			status := crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["status"]
			conds, ok := status.Properties["conditions"]
			if !want.Conditions {
				require.False(t, ok, "%s carries no conditions", want.Kind)
				return
			}
			require.True(t, ok, "status.conditions declared")
			require.Equal(t, "array", conds.Type)
			require.NotNil(t, conds.XListType)
			require.Equal(t, "map", *conds.XListType)
			require.Equal(t, []string{"type"}, conds.XListMapKeys)
			item := conds.Items.Schema
			require.Contains(t, item.Required, "type", "a map key must be required")
			for _, field := range []string{"type", "status", "reason", "message", "lastTransitionTime", "observedGeneration"} {
				require.Contains(t, item.Properties, field)
			}
			require.Equal(t, "date-time", item.Properties["lastTransitionTime"].Format)
			require.Equal(t, "integer", item.Properties["observedGeneration"].Type)
		})
	}
}

// TestCRDs_ValidAsTheAPIServerJudges runs the API server's own validation of
// a CustomResourceDefinition (structural schema, CEL rules, columns) offline,
// so a bad manifest fails without a control plane.
func TestCRDs_ValidAsTheAPIServerJudges(t *testing.T) {
	scheme := runtime.NewScheme()
	require.NoError(t, apiextensions.AddToScheme(scheme))
	require.NoError(t, apiextensionsv1.AddToScheme(scheme))
	for _, crd := range loadCRDs(t) {
		t.Run(crd.Spec.Names.Kind, func(t *testing.T) {
			// As the API server does on create: default, convert, record the
			// stored version.
			defaulted := crd.DeepCopy()
			apiextensionsv1.SetObjectDefaults_CustomResourceDefinition(defaulted)
			internal := &apiextensions.CustomResourceDefinition{}
			require.NoError(t, scheme.Convert(defaulted, internal, nil))
			internal.Status.StoredVersions = []string{"v1alpha1"}
			errs := validation.ValidateCustomResourceDefinition(context.Background(), internal)
			require.Empty(t, errs.ToAggregate())
		})
	}
}

func TestCRDs_SpecKeepsUnknownFields(t *testing.T) {
	for _, crd := range loadCRDs(t) {
		spec := crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"]
		require.NotNil(t, spec.XPreserveUnknownFields, crd.Name)
		require.True(t, *spec.XPreserveUnknownFields, crd.Name)
	}
}
