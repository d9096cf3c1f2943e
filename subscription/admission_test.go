package subscription_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/util/validation/field"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/subscription"
	st "github.com/condengine/condengine/subscription/subscriptiontest"
)

func messages(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Field+": "+e.Detail)
	}
	return out
}

func TestAdmission_ValidSubscriptionPasses(t *testing.T) {
	s := st.New("a", "x", st.Parent("b", "root"), st.Policy(finopsv1.PolicyOrphan), st.Target("v1", "Namespace", "", "a"))
	s.Spec.UsageSources = []finopsv1.UsageSource{{ResourceType: "Pod", Name: "web-0"}, {Namespace: "a"}}
	assert.Empty(t, subscription.ValidateCreate(&s))
}

func TestAdmission_NamespaceRequiredOnEveryReference(t *testing.T) {
	s := st.New("a", "x", st.Offering("", "base"), st.Parent("", "root"))
	assert.Equal(t, []string{
		"spec.offeringRef.namespace: namespace is required and never defaulted",
		"spec.parent.subscriptionRef.namespace: namespace is required and never defaulted",
	}, messages(subscription.Validate(&s)))
}

func TestAdmission_UsageSourceNeedsAField(t *testing.T) {
	s := st.New("a", "x")
	s.Spec.UsageSources = []finopsv1.UsageSource{{Namespace: "a"}, {}}
	assert.Equal(t, []string{"spec.usageSources[1]: at least one of resourceType, name, or namespace must be set"},
		messages(subscription.Validate(&s)))
}

func TestAdmission_EnumsHold(t *testing.T) {
	s := st.New("a", "x", st.Policy("Adopt"))
	s.Spec.UsageSources = []finopsv1.UsageSource{{ResourceType: "Service"}}
	errs := subscription.Validate(&s)
	assert.Len(t, errs, 2)
	for _, e := range errs {
		assert.Equal(t, field.ErrorTypeNotSupported, e.Type)
	}
}

func TestAdmission_CreateRejectsSelfParentAndSelfTarget(t *testing.T) {
	s := st.New("a", "x", st.Parent("a", "x"), st.Target(finopsv1.APIVersion, finopsv1.KindSubscription, "a", "x"))
	got := messages(subscription.ValidateCreate(&s))
	assert.Len(t, got, 2)
	assert.Contains(t, got[0], "CircularDependencyDetected")
	assert.Contains(t, got[1], "TargetIsSelfReference")
	other := st.New("a", "x", st.Target("v1", "ConfigMap", "a", "x"))
	assert.Empty(t, subscription.ValidateCreate(&other), "same name, other kind is not a self-reference")
}

func TestAdmission_UpdateKeepsOfferingRefAndParent(t *testing.T) {
	old := st.New("a", "x", st.Parent("a", "root"))
	moved := st.New("a", "x", st.Offering("shop", "other"), st.Parent("a", "root"))
	assert.Equal(t, []string{"spec.offeringRef: offeringRef is immutable; create a new Subscription instead"},
		messages(subscription.ValidateUpdate(&old, &moved)))
	orphaned := st.New("a", "x")
	assert.Equal(t, []string{"spec.parent: parent is immutable; create a new Subscription instead"},
		messages(subscription.ValidateUpdate(&old, &orphaned)), "removing the parent is a change too")
	adopted := st.New("a", "x", st.Parent("a", "root"))
	assert.Equal(t, []string{"spec.parent: parent is immutable; create a new Subscription instead"},
		messages(subscription.ValidateUpdate(&orphaned, &adopted)), "adding one as well")
	edited := st.New("a", "x", st.Parent("a", "root"), st.Target(finopsv1.APIVersion, finopsv1.KindSubscription, "a", "x"))
	assert.Empty(t, subscription.ValidateUpdate(&old, &edited), "lifecycle is editable and updates skip the webhook")
}
