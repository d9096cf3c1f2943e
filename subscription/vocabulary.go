package subscription

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/billing"
	"github.com/condengine/condengine/conditions"
)

// Condition types of a Subscription, in the order they are written.
const (
	TypeReady         = conditions.TypeReady
	TypeActive        = "Active"
	TypeDeleting      = "Deleting"
	TypeCostsResolved = "CostsResolved"
)

// Reasons a Subscription's conditions carry. The Ready holding reasons
// name the gate that failed; the Active False reasons name why billing
// ended.
const (
	ReasonOfferingNotFound               = "OfferingNotFound"
	ReasonOfferingNotReady               = "OfferingNotReady"
	ReasonParentSubscriptionNotFound     = "ParentSubscriptionNotFound"
	ReasonParentSubscriptionNotReady     = "ParentSubscriptionNotReady"
	ReasonParentSubscriptionDeactivated  = "ParentSubscriptionDeactivated"
	ReasonCircularDependencyDetected     = "CircularDependencyDetected"
	ReasonCompatibilityRequirementNotMet = "CompatibilityRequirementNotMet"
	ReasonTargetNotFound                 = "TargetNotFound"
	ReasonTargetIsSelfReference          = "TargetIsSelfReference"
	ReasonValidationError                = conditions.ReasonValidationError
	ReasonActivationSucceeded            = "ActivationSucceeded"
	ReasonOrphaned                       = "Orphaned"
	ReasonValidationSucceeded            = conditions.ReasonValidationSucceeded
	ReasonParentDeactivated              = "ParentDeactivated"
	ReasonMarkedForDeletion              = "MarkedForDeletion"
	ReasonWaitingForCollectionJob        = "WaitingForCollectionJob"
	ReasonFromDB                         = "FromDB"
	ReasonFromCalculator                 = "FromCalculator"
)

// HazardNeverActivated warns that a Subscription deleted before it ever
// activated keeps its finalizer: collection runs select Subscriptions by
// status.activatedAt, so no run visits it. It is shown beside
// billing.HazardSettlementGate wherever the Deleting condition is
// described.
const HazardNeverActivated = "Hazard: a Subscription deleted before it ever activated is skipped by every collection run, " +
	"so no run releases its finalizer; once nothing is owed, remove the finalizer by hand."

var (
	cTrue  = metav1.ConditionTrue
	cFalse = metav1.ConditionFalse
)

// Vocabulary is the Subscription's condition table: every type, every
// (status, reason) pair, what it means, what to do and whether it is
// terminal. Docs, validation and tests all read it.
var Vocabulary = conditions.MustVocabulary(finopsv1.APIVersion, finopsv1.KindSubscription, []conditions.Type{
	{
		Name:     TypeReady,
		Meaning:  "Whether every activation gate passes now; after deactivation always False.",
		Required: true,
		Reasons: []conditions.Reason{
			{Status: cFalse, Reason: ReasonOfferingNotFound,
				Meaning: "Offering gate: spec.offeringRef names no Offering.",
				Action:  "Create the Offering, or replace the Subscription with a correct reference (namespace included)."},
			{Status: cFalse, Reason: ReasonOfferingNotReady,
				Meaning: "Offering gate: the Offering exists but its status.ready is not True.",
				Action:  "Fix the Offering's own conditions; the Subscription follows by itself."},
			{Status: cFalse, Reason: ReasonParentSubscriptionNotFound,
				Meaning: "Parent gate: spec.parent.subscriptionRef names no Subscription.",
				Action:  "Create the parent; the reference itself cannot be changed."},
			{Status: cFalse, Reason: ReasonParentSubscriptionNotReady,
				Meaning: "Parent gate: the parent exists but is not ready (or the parent chain loops).",
				Action:  "Wait for the parent to activate, or break the parent loop."},
			{Status: cFalse, Reason: ReasonParentSubscriptionDeactivated,
				Meaning: "Parent gate: the parent has ended; a never-activated child cannot join it.",
				Action:  "Create a new family; deactivation is one-way."},
			{Status: cFalse, Reason: ReasonCircularDependencyDetected,
				Meaning: "spec.parent.subscriptionRef names the Subscription itself.",
				Action:  "Replace the Subscription; the parent reference is immutable."},
			{Status: cFalse, Reason: ReasonCompatibilityRequirementNotMet,
				Meaning: "Compatibility gate: a required Offering is not held by an active relative outside this Subscription's subtree.",
				Action:  "Subscribe a relative to the required Offering."},
			{Status: cFalse, Reason: ReasonTargetNotFound,
				Meaning: "Target gate: the object named by spec.lifecycle.targetRef does not exist.",
				Action:  "Create the target, or remove the targetRef."},
			{Status: cFalse, Reason: ReasonTargetIsSelfReference,
				Meaning: "spec.lifecycle.targetRef names this Subscription.",
				Action:  "Point targetRef at another object, or remove it."},
			{Status: cFalse, Reason: ReasonValidationError,
				Meaning: "A read failed for a reason other than not found; the message names the gate.",
				Action:  "Usually nothing: the evaluation is retried with a growing delay."},
			{Status: cFalse, Reason: ReasonValidationSucceeded,
				Meaning: "The Subscription was deactivated; the cause is on the Active condition.",
				Action:  "Read the Active condition and status.deactivatedAt.", Terminal: true},
			{Status: cTrue, Reason: ReasonActivationSucceeded,
				Meaning: "All four gates pass."},
			{Status: cTrue, Reason: ReasonOrphaned,
				Meaning: "All gates pass and the Subscription outlived its parent under the Orphan policy."},
		},
	},
	{
		Name:    TypeActive,
		Meaning: "Whether the billing relationship is open; absent until the first activation.",
		Reasons: []conditions.Reason{
			{Status: cTrue, Reason: ReasonActivationSucceeded,
				Meaning: "Billing is open."},
			{Status: cTrue, Reason: ReasonOrphaned,
				Meaning: "Billing is open and the parent is gone; requirements must still be covered."},
			{Status: cFalse, Reason: ReasonParentDeactivated,
				Meaning: "The parent ended or vanished under the Deactivate policy.",
				Action:  "Nothing; the cascade is intended.", Terminal: true},
			{Status: cFalse, Reason: ReasonCompatibilityRequirementNotMet,
				Meaning: "A requirement lost its last active provider in the family.",
				Action:  "Create a new Subscription; restoring the provider does not revive this one.", Terminal: true},
			{Status: cFalse, Reason: ReasonTargetNotFound,
				Meaning: "The object named by spec.lifecycle.targetRef was deleted.",
				Action:  "Create a new Subscription if billing should resume.", Terminal: true},
			{Status: cFalse, Reason: ReasonMarkedForDeletion,
				Meaning: "The Subscription is being deleted.",
				Action:  "Nothing; a charge collection run releases the finalizer.", Terminal: true},
		},
	},
	{
		Name: TypeDeleting,
		Meaning: "Present while a deleted Subscription waits for its finalizer to be released. " +
			billing.HazardSettlementGate + " " + HazardNeverActivated,
		Reasons: []conditions.Reason{
			{Status: cFalse, Reason: ReasonWaitingForCollectionJob,
				Meaning: "No charge collection run has released the finalizer yet.",
				Action:  "Check that a SubscriptionChargeCollection CostJob exists and succeeds.", Terminal: true},
		},
	},
	{
		Name:    TypeCostsResolved,
		Meaning: "Where the last charge collection run took status.costs from.",
		Reasons: []conditions.Reason{
			{Status: cTrue, Reason: ReasonFromDB,
				Meaning: "The buckets were summed from the recorded charge rows."},
			{Status: cTrue, Reason: ReasonFromCalculator,
				Meaning: "The charge rows could not be read; the buckets are the fee projection.",
				Action:  "Check the collection job's log and its database connection."},
		},
	},
})
