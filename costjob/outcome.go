package costjob

import (
	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/conditions"
)

// Outcome is what one reconcile decides for one CostJob: the shared
// conditions.Outcome (identity, Conditions, Owned, Write and Skip,
// Finalizer, Retry) and the CostJob's whole Status, with the CronJob
// schedule.
//
// The reconciler writes no status (collection runs write the execution
// record, see Record), so Write is always false with Skip NeverWritten,
// Conditions and Owned are empty (a CostJob carries no conditions), and
// Status is the object's as it stands. No finalizer, no retry.
type Outcome struct {
	conditions.Outcome
	// Status is the object's status as it stands; the reconciler writes
	// none of it.
	Status finopsv1.CostJobStatus
	// Schedule is the CronJob schedule the interval maps to.
	Schedule string
	// Recognised reports that the interval was one of the known ones; an
	// unrecognised one falls back to daily without a word.
	Recognised bool
}

// OutcomeOf decides one reconcile of j.
func OutcomeOf(j *finopsv1.CostJob) Outcome {
	o := Outcome{
		Outcome: conditions.Outcome{Kind: finopsv1.KindCostJob, Namespace: j.Namespace, Name: j.Name, UID: j.UID,
			Generation: j.Generation, Skip: conditions.SkipNeverWritten},
		Status: j.Status,
	}
	o.Schedule, o.Recognised = Schedule(j)
	return o
}
