package subscription

import (
	"github.com/condengine/condengine/api/finops/v1alpha1"
)

// The Subscription API types are declared in api/finops/v1alpha1; the
// names below are aliases kept so that existing callers compile
// unchanged. New code should import v1alpha1.

// APIVersion and Kind identify a Subscription manifest.
const (
	APIVersion = v1alpha1.APIVersion
	Kind       = v1alpha1.KindSubscription
)

// Finalizer is the finalizer that holds a deleted Subscription until a
// charge collection run agrees to let it go.
const Finalizer = v1alpha1.SubscriptionFinalizer

// Parent-loss policies of spec.lifecycle.onParentDeactivate.
const (
	PolicyDeactivate = v1alpha1.PolicyDeactivate
	PolicyOrphan     = v1alpha1.PolicyOrphan
)

// Aliases of the v1alpha1 types.
type (
	// Subscription is v1alpha1.Subscription.
	Subscription = v1alpha1.Subscription
	// Spec is v1alpha1.SubscriptionSpec.
	Spec = v1alpha1.SubscriptionSpec
	// Reference is v1alpha1.Reference, shared with offering.
	Reference = v1alpha1.Reference
	// Parent is v1alpha1.Parent.
	Parent = v1alpha1.Parent
	// UsageSource is v1alpha1.UsageSource.
	UsageSource = v1alpha1.UsageSource
	// Lifecycle is v1alpha1.SubscriptionLifecycle.
	Lifecycle = v1alpha1.SubscriptionLifecycle
	// TargetRef is v1alpha1.TargetRef.
	TargetRef = v1alpha1.TargetRef
	// Status is v1alpha1.SubscriptionStatus.
	Status = v1alpha1.SubscriptionStatus
)
