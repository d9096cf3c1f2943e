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
	assert.Equal(t, []finops.Object{
		{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop", Name: "web"},
		{APIVersion: "v1", Kind: "ConfigMap", Namespace: "opencost", Name: finops.PricingConfigMap},
	}, s.Others)
	assert.Equal(t, map[string]string{"CPU": "0.031", "provider": "custom"}, s.PricingDocument)
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
`, "document 1: PriceBook finops/b: spec.rates.cpuHour: a JSON number cannot be a string"},
		{"ListItem", `{"kind": "List", "items": [{"apiVersion": "finops.stakater.com/v1alpha1", "kind": "Offering", "metadata": {"name": "x"}, "spec": {"pricing": {"subscriptionFee": {"priceMicros": "ten"}}}}]}`,
			"document 0 item 0: Offering x: spec.pricing.subscriptionFee.priceMicros: a JSON string cannot be a int64"},
		{"MissingKind", `{"metadata": {"name": "x"}}`, "document 0: field kind: missing"},
		{"MissingName", `{"kind": "Offering", "apiVersion": "finops.stakater.com/v1alpha1"}`, "document 0: Offering: field metadata.name: missing"},
		{"Duplicate", "kind: Secret\nmetadata: {name: s}\n---\nkind: Secret\nmetadata: {name: s}\n",
			"document 1: Secret s is listed again (first in document 0)"},
		{"BadPricingDocument", "kind: ConfigMap\nmetadata: {name: finops-operator-custom-pricing-configs}\ndata: {default.json: '{'}\n",
			`document 0: ConfigMap finops-operator-custom-pricing-configs: field data["default.json"]`},
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
	assert.Len(t, s.Others, 1)
}
