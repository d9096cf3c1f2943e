package finops_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/condengine/condengine/finops"
)

func TestDecode_KindsListsAndOthers(t *testing.T) {
	s, err := finops.Decode([]byte(`
apiVersion: finops.stakater.com/v1alpha1
kind: PriceBook
metadata: {namespace: finops, name: standard}
spec: {currency: EUR, valuationMode: currency, rates: {cpuHour: "0.031"}}
---
apiVersion: v1
kind: List
items:
  - apiVersion: finops.stakater.com/v1alpha1
    kind: Offering
    metadata: {namespace: shop, name: base}
    spec: {pricing: {}}
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {namespace: shop, name: web}
---
apiVersion: v1
kind: ConfigMap
metadata: {namespace: opencost, name: finops-operator-custom-pricing-configs}
data:
  default.json: '{"CPU":"0.031","provider":"custom"}'
---
`))
	require.NoError(t, err)
	require.Len(t, s.PriceBooks, 1)
	assert.Equal(t, "0.031", s.PriceBooks[0].Spec.Rates.CPUHour)
	require.Len(t, s.Offerings, 1)
	assert.Equal(t, []finops.ObjectRef{
		{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop", Name: "web"},
		{APIVersion: "v1", Kind: "ConfigMap", Namespace: "opencost", Name: finops.PricingConfigMap},
	}, s.Objects)
	assert.Equal(t, map[string]string{"CPU": "0.031", "provider": "custom"}, s.PricingDocument)
}

// The pricing document's keys are read as a manifest's are: a key given
// twice is refused, while keys that differ only in case are two keys
// of its map. So are the ConfigMap's own fields.
func TestDecode_PricingDocumentKeys(t *testing.T) {
	cm := func(data string) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata: {namespace: opencost, name: finops-operator-custom-pricing-configs}\n" + data
	}
	_, err := finops.Decode([]byte(cm("data:\n  default.json: '{\"CPU\":\"0.031\",\"CPU\":\"9\"}'\n")))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `data["default.json"]: CPU: given twice on line 1`)

	_, err = finops.Decode([]byte(cm("data:\n  default.json: '{}'\nData:\n  default.json: '{\"CPU\":\"9\"}'\n")))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `line 6: data: given on line 4 as "data" and again on line 6 as "Data"`)

	s, err := finops.Decode([]byte(cm("data:\n  default.json: '{\"CPU\":\"0.031\",\"cpu\":\"9\"}'\n")))
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"CPU": "0.031", "cpu": "9"}, s.PricingDocument)
}

func TestDecode_ErrorsNameDocumentAndField(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"UnquotedRate", `
apiVersion: finops.stakater.com/v1alpha1
kind: PriceBook
metadata: {name: a}
---
apiVersion: finops.stakater.com/v1alpha1
kind: PriceBook
metadata: {namespace: finops, name: b}
spec: {rates: {cpuHour: 0.5}}
`, "document 2 (PriceBook finops/b), line 9: spec.rates.cpuHour: must be a string, not the number 0.5"},
		{"ListItem", `{"kind": "List", "items": [{"apiVersion": "finops.stakater.com/v1alpha1", "kind": "Offering", "metadata": {"name": "x"}, "spec": {"pricing": {"subscriptionFee": {"priceMicros": "ten"}}}}]}`,
			`document 1, items[0] (Offering x), line 1: spec.pricing.subscriptionFee.priceMicros: must be an integer, not "ten"`},
		{"MissingKind", `{"metadata": {"name": "x"}}`, "document 1, line 1: kind: required"},
		{"MissingName", `{"kind": "Offering", "apiVersion": "finops.stakater.com/v1alpha1"}`, "document 1 (Offering), line 1: metadata.name: required"},
		{"Duplicate", "kind: Secret\nmetadata: {name: s}\n---\nkind: Secret\nmetadata: {name: s}\n",
			"document 2 (Secret s), line 5: metadata.name: Secret s is listed again (first in document 1, line 1)"},
		{"UnknownField", "apiVersion: finops.stakater.com/v1alpha1\nkind: CostJob\nmetadata: {name: j}\nspec:\n  schedul: daily\n",
			"document 1 (CostJob j), line 5: spec.schedul: unknown field"},
		{"MisspeltKind", "apiVersion: finops.stakater.com/v1alpha1\nkind: PriceBok\nmetadata: {name: p}\n",
			`document 1 (PriceBok p), line 2: kind: "PriceBok" is not a kind of finops.stakater.com (want PriceBook, Offering, Subscription, CostJob, FinOpsProvider)`},
		{"WrongVersion", "apiVersion: finops.stakater.com/v1\nkind: PriceBook\nmetadata: {name: p}\n",
			`document 1 (PriceBook p), line 1: apiVersion: "finops.stakater.com/v1" is not served; use finops.stakater.com/v1alpha1`},
		{"NestedListItem", "kind: List\nitems:\n- kind: List\n  items:\n  - apiVersion: finops.stakater.com/v1alpha1\n    kind: Offering\n    metadata: {name: o}\n    spec: {pricingg: {}}\n",
			"document 1, items[0].items[0] (Offering o), line 8: spec.pricingg: unknown field"},
		{"BadPricingDocument", "kind: ConfigMap\nmetadata: {name: finops-operator-custom-pricing-configs}\ndata: {default.json: '{'}\n",
			`document 1 (ConfigMap finops-operator-custom-pricing-configs), line 3: data["default.json"]: not valid JSON`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := finops.Decode([]byte(tc.in))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestDecode_OtherGroupPriceBookIsOther(t *testing.T) {
	s, err := finops.Decode([]byte("apiVersion: example.com/v1\nkind: PriceBook\nmetadata: {name: x}\n"))
	require.NoError(t, err)
	assert.Empty(t, s.PriceBooks)
	assert.Len(t, s.Objects, 1)
}
