// +kubebuilder:object:generate=true
// +kubebuilder:validation:Optional

package v1alpha1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/condengine/condengine/api/internal/register"
)

// Group, version and kinds of the FinOps API. Every other package of the
// module refers to these; none spells them again.
const (
	// GroupName is the API group of the five kinds.
	GroupName = "finops.stakater.com"
	// Version is the one served version.
	Version = "v1alpha1"
	// APIVersion is what a manifest's apiVersion field reads.
	APIVersion = GroupName + "/" + Version

	KindPriceBook      = "PriceBook"
	KindOffering       = "Offering"
	KindSubscription   = "Subscription"
	KindCostJob        = "CostJob"
	KindFinOpsProvider = "FinOpsProvider"
)

// Finalizers and annotations of the group.
const (
	// OfferingFinalizer is the finalizer the Offering reconciler owns; it
	// is dropped in the same result that writes Deleting=True
	// DeletionAllowed.
	OfferingFinalizer = "offerings." + GroupName + "/finalizer"
	// SubscriptionFinalizer holds a deleted Subscription until a charge
	// collection run agrees to let it go.
	SubscriptionFinalizer = "subscriptions." + GroupName + "/finalizer"
	// ActiveAnnotation pins a PriceBook as the active one when its value
	// is exactly "true".
	ActiveAnnotation = GroupName + "/active"
)

var (
	// GroupVersion is GroupName and Version as the scheme knows them.
	GroupVersion = schema.GroupVersion{Group: GroupName, Version: Version}

	// SchemeBuilder registers the kinds of this group and version.
	SchemeBuilder = register.Builder(GroupVersion,
		&PriceBook{}, &PriceBookList{},
		&Offering{}, &OfferingList{},
		&Subscription{}, &SubscriptionList{},
		&CostJob{}, &CostJobList{},
		&FinOpsProvider{}, &FinOpsProviderList{},
	)

	// AddToScheme adds every kind of this package, with its List, to a
	// scheme, together with the meta/v1 types a client needs beside them.
	AddToScheme = SchemeBuilder.AddToScheme
)
