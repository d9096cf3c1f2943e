package provider

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
)

// Branch names the reconcile branch a FinOpsProvider takes.
type Branch string

// The branches, in the order the reconciler tries them.
const (
	BranchAWS    Branch = "aws"
	BranchGCP    Branch = "gcp"
	BranchAzure  Branch = "azure"
	BranchOnPrem Branch = "onprem"
	// BranchNone: no option matched; the reconciler logs
	// MsgNoValidOpts and changes nothing.
	BranchNone Branch = ""
)

// Plan is what one reconcile of a FinOpsProvider does to OpenCost. It
// never includes a status write: a FinOpsProvider has none.
type Plan struct {
	// Branch is the option that matched, or BranchNone.
	Branch Branch
	// Log is the line the reconciler logs when nothing matched.
	Log string
	// CloudCost reports that OpenCost's cloud cost integration is turned
	// on (a cloud branch); the secret goes to OpenCost as written.
	CloudCost bool
	// CloudIntegrationSecret is the value handed to OpenCost. It must
	// never reach a status, message or log line.
	CloudIntegrationSecret string
	// CustomPricing is nil when the switch is left alone, else the value
	// it is set to.
	CustomPricing *bool
	// Conditions are the object's conditions exactly as it holds them:
	// every type is outside the (empty) vocabulary of a kind that writes
	// no status, so they are all another writer's.
	// The slice is the object's own; do not modify it.
	Conditions []metav1.Condition
}

// Evaluate decides one reconcile. A cloud block matches only with a
// non-empty cloudIntegrationSecret; the on-premises block always matches
// and turns custom pricing on before pricingModelSource is read. With
// more than one block (which admission refuses) the first match in the
// order aws, gcp, azure, onprem wins. The status is never written: the
// caller writes nothing back whatever the plan says.
func Evaluate(p *finopsv1.FinOpsProvider) Plan {
	pl := plan(p)
	pl.Conditions = p.Status.Conditions
	return pl
}

func plan(p *finopsv1.FinOpsProvider) Plan {
	on := true
	cloud := []struct {
		b Branch
		o *finopsv1.CloudOptions
	}{{BranchAWS, p.Spec.AWSOptions}, {BranchGCP, p.Spec.GCPOptions}, {BranchAzure, p.Spec.AzureOptions}}
	for _, c := range cloud {
		if c.o == nil || c.o.CloudIntegrationSecret == "" {
			continue
		}
		pl := Plan{Branch: c.b, CloudCost: true, CloudIntegrationSecret: c.o.CloudIntegrationSecret}
		if c.o.PricingModelSource == finopsv1.PricingModelPricebook {
			pl.CustomPricing = &on
		}
		return pl
	}
	if p.Spec.OnPremOptions != nil {
		return Plan{Branch: BranchOnPrem, CustomPricing: &on}
	}
	return Plan{Branch: BranchNone, Log: MsgNoValidOpts}
}
