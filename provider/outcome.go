package provider

import (
	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
)

// Outcome is what one reconcile decides for one FinOpsProvider: the
// shared conditions.Outcome (identity, Conditions, Owned, Write and Skip,
// Finalizer, Retry) and the FinOpsProvider's whole Status, with the Plan
// for OpenCost.
//
// The reconciler writes no status, so Write is always false with Skip
// NeverWritten, Owned is always empty, and Conditions and Status are
// exactly what the object holds: another controller's conditions on it
// are carried as they stand. No finalizer, no
// retry.
type Outcome struct {
	conditions.Outcome
	// Status is the object's status as it stands; nothing is written.
	Status finopsv1.FinOpsProviderStatus
	// Plan is what the reconcile does to OpenCost.
	Plan Plan
}

// OutcomeOf decides one reconcile of p, as Evaluate does, and wraps the
// plan in the shared outcome shape.
func OutcomeOf(p *finopsv1.FinOpsProvider) Outcome {
	return Outcome{
		Outcome: conditions.Outcome{Kind: finopsv1.KindFinOpsProvider, Namespace: p.Namespace, Name: p.Name, UID: p.UID,
			Generation: p.Generation, Conditions: p.Status.Conditions, Skip: conditions.SkipNeverWritten},
		Status: p.Status,
		Plan:   Evaluate(p),
	}
}
