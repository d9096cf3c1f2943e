package provider

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
)

func named(name string, spec finopsv1.FinOpsProviderSpec) *finopsv1.FinOpsProvider {
	return &finopsv1.FinOpsProvider{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: spec}
}

func details(p *finopsv1.FinOpsProvider) []string {
	var out []string
	for _, e := range Validate(p) {
		out = append(out, e.Detail)
	}
	return out
}

func TestValidate_SingletonName(t *testing.T) {
	assert.Equal(t, []string{"FinOpsProvider must be named 'default' (singleton)."},
		details(named("prod", finopsv1.FinOpsProviderSpec{OnPremOptions: &finopsv1.OnPremOptions{}})))
	assert.Empty(t, details(named("default", finopsv1.FinOpsProviderSpec{OnPremOptions: &finopsv1.OnPremOptions{}})))
}

func TestValidate_EmptySpecFailsBothOptionRules(t *testing.T) {
	assert.Equal(t, []string{
		"At least one provider option (awsoptions, gcpoptions, azureoptions, onpremoptions) must be set",
		"Exactly one provider option (awsoptions, gcpoptions, azureoptions, onpremoptions) must be set",
	}, details(named("default", finopsv1.FinOpsProviderSpec{})))
}

func TestValidate_TwoOptionsExactlyOne(t *testing.T) {
	assert.Equal(t, []string{"Exactly one provider option (awsoptions, gcpoptions, azureoptions, onpremoptions) must be set"},
		details(named("default", finopsv1.FinOpsProviderSpec{AWSOptions: &finopsv1.CloudOptions{}, OnPremOptions: &finopsv1.OnPremOptions{}})))
}

func TestValidate_NoMessageCarriesTheSecret(t *testing.T) {
	p := named("x", finopsv1.FinOpsProviderSpec{AWSOptions: &finopsv1.CloudOptions{CloudIntegrationSecret: "AKIA-super-secret"}, GCPOptions: &finopsv1.CloudOptions{CloudIntegrationSecret: "gcp-secret-json"}})
	for _, e := range Validate(p) {
		assert.NotContains(t, e.Error(), "secret-")
		assert.NotContains(t, e.Error(), "AKIA")
	}
}

func TestEvaluate_CloudBranchNeedsSecret(t *testing.T) {
	p := Evaluate(named("default", finopsv1.FinOpsProviderSpec{AzureOptions: &finopsv1.CloudOptions{PricingModelSource: "Pricebook"}}))
	assert.Equal(t, BranchNone, p.Branch)
	assert.Equal(t, "No valid provider option configured", p.Log)
	assert.Nil(t, p.CustomPricing)
	assert.False(t, p.CloudCost)
}

func TestEvaluate_CloudBranchPricebookTurnsCustomPricingOn(t *testing.T) {
	p := Evaluate(named("default", finopsv1.FinOpsProviderSpec{GCPOptions: &finopsv1.CloudOptions{CloudIntegrationSecret: "s", PricingModelSource: "Pricebook"}}))
	assert.Equal(t, BranchGCP, p.Branch)
	assert.True(t, p.CloudCost)
	assert.Equal(t, "s", p.CloudIntegrationSecret)
	require.NotNil(t, p.CustomPricing)
	assert.True(t, *p.CustomPricing)
}

func TestEvaluate_PricingModelSourceComparedExactly(t *testing.T) {
	for _, src := range []string{"", "pricebook", "PriceBook", "Pricebook "} {
		p := Evaluate(named("default", finopsv1.FinOpsProviderSpec{AWSOptions: &finopsv1.CloudOptions{CloudIntegrationSecret: "s", PricingModelSource: src}}))
		assert.Equal(t, BranchAWS, p.Branch)
		assert.Nil(t, p.CustomPricing, "%q leaves the switch alone", src)
	}
}

func TestEvaluate_OnPremAlwaysMatchesAndTurnsCustomPricingOn(t *testing.T) {
	p := Evaluate(named("default", finopsv1.FinOpsProviderSpec{OnPremOptions: &finopsv1.OnPremOptions{PricingModelSource: "Other"}}))
	assert.Equal(t, BranchOnPrem, p.Branch)
	require.NotNil(t, p.CustomPricing)
	assert.True(t, *p.CustomPricing)
	assert.Empty(t, p.CloudIntegrationSecret)
}

func TestEvaluate_SeveralBlocksFirstMatchWins(t *testing.T) {
	p := Evaluate(named("default", finopsv1.FinOpsProviderSpec{AWSOptions: &finopsv1.CloudOptions{}, AzureOptions: &finopsv1.CloudOptions{CloudIntegrationSecret: "az"},
		OnPremOptions: &finopsv1.OnPremOptions{}}))
	assert.Equal(t, BranchAzure, p.Branch, "aws has no secret, so azure is the first match")
}

func TestFinOpsProvider_StatusIsNeverWritten(t *testing.T) {
	p := named("default", finopsv1.FinOpsProviderSpec{OnPremOptions: &finopsv1.OnPremOptions{}})
	before := p.Status
	_ = Evaluate(p)
	_ = Validate(p)
	assert.Equal(t, before, p.Status)
}

// A FinOpsProvider's outcome carries its conditions
// as the object holds them; it writes none of its own.
func TestEvaluate_CarriesTheObjectsConditions(t *testing.T) {
	p := finopsv1.FinOpsProvider{Spec: finopsv1.FinOpsProviderSpec{OnPremOptions: &finopsv1.OnPremOptions{}}}
	p.Status.Conditions = []metav1.Condition{
		{Type: "example.com/Synced", Status: metav1.ConditionTrue, Reason: "Fine", Message: "kept as it is"},
		{Type: "Ready", Status: metav1.ConditionFalse, Reason: "Other"},
	}
	got := Evaluate(&p)
	assert.Equal(t, p.Status.Conditions, got.Conditions)
	assert.Equal(t, BranchOnPrem, got.Branch)
	assert.Empty(t, Evaluate(&finopsv1.FinOpsProvider{}).Conditions)
}
