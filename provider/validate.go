package provider

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
)

// The admission messages, exactly as the CRD rules word them.
const (
	MsgSingleton   = "FinOpsProvider must be named 'default' (singleton)."
	MsgAtLeastOne  = "At least one provider option (awsoptions, gcpoptions, azureoptions, onpremoptions) must be set"
	MsgExactlyOne  = "Exactly one provider option (awsoptions, gcpoptions, azureoptions, onpremoptions) must be set"
	MsgNoValidOpts = "No valid provider option configured"
)

// Validate applies the admission rules of a FinOpsProvider and returns
// the rejections, each carrying the exact CRD message: the name must be
// "default", and the spec must set exactly one option block. An empty
// spec breaks both option rules, so both messages are returned.
func Validate(p *finopsv1.FinOpsProvider) field.ErrorList {
	var errs field.ErrorList
	if p.Name != finopsv1.SingletonName {
		errs = append(errs, field.Invalid(field.NewPath("metadata", "name"), p.Name, MsgSingleton))
	}
	spec := field.NewPath("spec")
	switch n := optionCount(&p.Spec); {
	case n == 0:
		errs = append(errs, field.Invalid(spec, "", MsgAtLeastOne), field.Invalid(spec, "", MsgExactlyOne))
	case n > 1:
		errs = append(errs, field.Invalid(spec, "", MsgExactlyOne))
	}
	return errs
}

func optionCount(s *finopsv1.FinOpsProviderSpec) int {
	n := 0
	for _, set := range []bool{s.AWSOptions != nil, s.GCPOptions != nil, s.AzureOptions != nil, s.OnPremOptions != nil} {
		if set {
			n++
		}
	}
	return n
}
