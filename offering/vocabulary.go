package offering

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
)

// Condition types of an Offering, in the order they are written.
const (
	TypeReady           = conditions.TypeReady
	TypePricingResolved = "PricingResolved"
	TypeDeleting        = "Deleting"
)

// Reasons an Offering's conditions carry. The False reasons of Ready and
// PricingResolved are shared: one check decides both conditions.
const (
	ReasonValidationSucceeded         = conditions.ReasonValidationSucceeded
	ReasonPricingResolved             = "PricingResolved"
	ReasonRequiredOfferingNotFound    = "RequiredOfferingNotFound"
	ReasonRequiredOfferingNotReady    = "RequiredOfferingNotReady"
	ReasonCircularDependencyDetected  = "CircularDependencyDetected"
	ReasonNoActivePricebook           = "NoActivePricebook"
	ReasonPricebookParseFailed        = "PricebookParseFailed"
	ReasonValidationError             = conditions.ReasonValidationError
	ReasonDependentSubscriptionsExist = "DependentSubscriptionsExist"
	ReasonDependentOfferingsExist     = "DependentOfferingsExist"
	ReasonDeletionAllowed             = "DeletionAllowed"
)

// failureReasons are the False reasons Ready and PricingResolved share,
// with what each tells the reader and what to do. None is terminal: every
// one is checked again on the next reconcile.
var failureReasons = []conditions.Reason{
	{
		Status:  metav1.ConditionFalse,
		Reason:  ReasonRequiredOfferingNotFound,
		Meaning: "A compatibility.requiredOfferings entry names no Offering; the message quotes the entry.",
		Action:  "Create that Offering or fix the entry; its namespace must be written out.",
	},
	{
		Status:  metav1.ConditionFalse,
		Reason:  ReasonRequiredOfferingNotReady,
		Meaning: "A required Offering exists but its status.ready is not True.",
		Action:  "Repair the required Offering; this one follows on a later retry.",
	},
	{
		Status:  metav1.ConditionFalse,
		Reason:  ReasonCircularDependencyDetected,
		Meaning: "Following requiredOfferings from here runs into a loop; the message shows the walk.",
		Action:  "Break the loop by replacing an Offering in it (the spec cannot be edited).",
	},
	{
		Status:  metav1.ConditionFalse,
		Reason:  ReasonNoActivePricebook,
		Meaning: "Metered prices are declared but no active currency PriceBook exists to price them.",
		Action:  "Create a currency PriceBook or annotate one " + finopsv1.ActiveAnnotation + "=\"true\".",
	},
	{
		Status:  metav1.ConditionFalse,
		Reason:  ReasonPricebookParseFailed,
		Meaning: "A meter's rate on the active PriceBook, or that rate after the margin, is not a usable amount.",
		Action:  "Correct the rate named in the message (the PriceBook's Ready says more), or the margin.",
	},
	{
		Status:  metav1.ConditionFalse,
		Reason:  ReasonValidationError,
		Meaning: "A read needed for the checks failed; the host retries with a growing delay.",
		Action:  "Read the message; it usually clears by itself.",
	},
}

func withTrue(r conditions.Reason) []conditions.Reason {
	return append([]conditions.Reason{r}, failureReasons...)
}

// Vocabulary is the Offering's condition table. Ready and PricingResolved
// always appear together; Deleting appears once a deletion timestamp is
// set.
var Vocabulary = conditions.MustVocabulary(finopsv1.APIVersion, finopsv1.KindOffering, []conditions.Type{
	{
		Name:    TypeReady,
		Meaning: "Whether Subscriptions can bind to the Offering; mirrored into status.ready.",
		Reasons: withTrue(conditions.Reason{
			Status:  metav1.ConditionTrue,
			Reason:  ReasonValidationSucceeded,
			Meaning: "Every requirement resolves to a ready Offering and the pricing is published.",
			Action:  "None.",
		}),
	},
	{
		Name:    TypePricingResolved,
		Meaning: "Whether status.resolvedPricing is published; always agrees with Ready.",
		Reasons: withTrue(conditions.Reason{
			Status:  metav1.ConditionTrue,
			Reason:  ReasonPricingResolved,
			Meaning: "status.resolvedPricing holds the published prices, kept from then on.",
			Action:  "None.",
		}),
	},
	{
		Name:    TypeDeleting,
		Meaning: "Whether a deleting Offering may lose its finalizer.",
		Reasons: []conditions.Reason{
			{
				Status:  metav1.ConditionFalse,
				Reason:  ReasonDependentSubscriptionsExist,
				Meaning: "A ready Subscription still binds to this Offering; the finalizer stays.",
				Action:  "Delete or move those Subscriptions first.",
			},
			{
				Status:  metav1.ConditionFalse,
				Reason:  ReasonDependentOfferingsExist,
				Meaning: "A ready Offering still lists this one among its requiredOfferings; the finalizer stays.",
				Action:  "Delete that Offering first, or replace it with one that does not need this.",
			},
			{
				Status:  metav1.ConditionFalse,
				Reason:  ReasonValidationError,
				Meaning: "Listing the dependents failed; the host retries.",
				Action:  "Read the message; it usually clears by itself.",
			},
			{
				Status:  metav1.ConditionTrue,
				Reason:  ReasonDeletionAllowed,
				Meaning: "No ready dependent is left; the finalizer is dropped in the same write.",
				Action:  "None.",
			},
		},
	},
})
