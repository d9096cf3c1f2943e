package subscription

import (
	"reflect"
	"slices"

	"k8s.io/apimachinery/pkg/util/validation/field"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
)

// The admission rejection messages the CRD rules carry, word for word.
const (
	MsgOfferingRefImmutable = "offeringRef is immutable; create a new Subscription instead"
	MsgParentImmutable      = "parent is immutable; create a new Subscription instead"
	MsgUsageSourceEmpty     = "at least one of resourceType, name, or namespace must be set"
)

// Workload kinds spec.usageSources[].resourceType admits.
var resourceTypes = []string{"Deployment", "StatefulSet", "Pod", "DaemonSet", "Job", "CronJob", "ReplicaSet"}

// Validate applies the schema and CEL rules the API server checks on
// every write of a Subscription: references carry a name and a non-empty
// namespace, each usage source sets at least one field, and the enums
// hold. The errors carry field paths.
func Validate(s *finopsv1.Subscription) field.ErrorList {
	spec := field.NewPath("spec")
	var errs field.ErrorList
	errs = append(errs, validateRef(spec.Child("offeringRef"), s.Spec.OfferingRef)...)
	if p := s.Spec.Parent; p != nil {
		errs = append(errs, validateRef(spec.Child("parent", "subscriptionRef"), p.SubscriptionRef)...)
	}
	for i, u := range s.Spec.UsageSources {
		p := spec.Child("usageSources").Index(i)
		if u == (finopsv1.UsageSource{}) {
			errs = append(errs, field.Invalid(p, "", MsgUsageSourceEmpty))
		}
		if u.ResourceType != "" && !slices.Contains(resourceTypes, u.ResourceType) {
			errs = append(errs, field.NotSupported(p.Child("resourceType"), u.ResourceType, resourceTypes))
		}
	}
	if l := s.Spec.Lifecycle; l != nil {
		p := spec.Child("lifecycle")
		if l.OnParentDeactivate != "" && l.OnParentDeactivate != finopsv1.PolicyDeactivate && l.OnParentDeactivate != finopsv1.PolicyOrphan {
			errs = append(errs, field.NotSupported(p.Child("onParentDeactivate"), l.OnParentDeactivate,
				[]string{finopsv1.PolicyDeactivate, finopsv1.PolicyOrphan}))
		}
		if t := l.TargetRef; t != nil {
			tp := p.Child("targetRef")
			for _, f := range []struct{ name, value string }{{"apiVersion", t.APIVersion}, {"kind", t.Kind}, {"name", t.Name}} {
				if f.value == "" {
					errs = append(errs, field.Required(tp.Child(f.name), ""))
				}
			}
		}
	}
	return errs
}

// ValidateCreate is Validate plus the webhook's two create-time checks:
// a parent reference naming the Subscription itself, and a targetRef
// naming it on all of name, namespace, kind and API version. Each
// rejection names the reason the reconciler would report for it.
func ValidateCreate(s *finopsv1.Subscription) field.ErrorList {
	errs := Validate(s)
	if p := s.Spec.Parent; p != nil && p.SubscriptionRef == s.Key() {
		errs = append(errs, field.Invalid(field.NewPath("spec", "parent", "subscriptionRef"), p.SubscriptionRef.String(),
			string(ReasonCircularDependencyDetected)+": a Subscription cannot be its own parent"))
	}
	if t := targetOf(s); t != nil && t.APIVersion == finopsv1.APIVersion && t.Kind == finopsv1.KindSubscription && t.Namespace == s.Namespace && t.Name == s.Name {
		errs = append(errs, field.Invalid(field.NewPath("spec", "lifecycle", "targetRef"), t.Name,
			string(ReasonTargetIsSelfReference)+": a Subscription cannot be its own target"))
	}
	return errs
}

// ValidateUpdate is Validate plus the immutability rules: offeringRef
// cannot change, and parent can be neither changed, added nor removed.
// Updates never reach the webhook, so the self-reference checks do not
// run here; the reconciler reports them instead.
func ValidateUpdate(old, updated *finopsv1.Subscription) field.ErrorList {
	errs := Validate(updated)
	spec := field.NewPath("spec")
	if old.Spec.OfferingRef != updated.Spec.OfferingRef {
		errs = append(errs, field.Invalid(spec.Child("offeringRef"), updated.Spec.OfferingRef.String(), MsgOfferingRefImmutable))
	}
	if !reflect.DeepEqual(old.Spec.Parent, updated.Spec.Parent) {
		errs = append(errs, field.Invalid(spec.Child("parent"), "", MsgParentImmutable))
	}
	return errs
}

func validateRef(p *field.Path, r finopsv1.Reference) field.ErrorList {
	var errs field.ErrorList
	if r.Name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	}
	if r.Namespace == "" {
		errs = append(errs, field.Required(p.Child("namespace"), "namespace is required and never defaulted"))
	}
	return errs
}
