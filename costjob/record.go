package costjob

import (
	"fmt"
	"slices"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/redact"
)

// HistoryLimit is how many execution records status keeps.
const HistoryLimit = 10

// Record folds one finished run into a CostJob's status and returns the
// new status and whether it differs from the old one:
//
//   - a SubscriptionChargeCollection job keeps its status as it is
//     (empty, unless someone else wrote it): nothing to write;
//   - only Success and Failed are accepted; any other outcome is an error
//     and the status is returned unchanged;
//   - the record is put first and the history cut to HistoryLimit;
//   - lastExecutionTime and lastExecutionStatus follow the record;
//   - lastSuccessfulExecutionTime moves only on Success.
//
// The record's error text is passed through redact.Message, since it may
// carry a connection string or host. The old status is not modified.
func Record(job finopsv1.CostJob, rec finopsv1.ExecutionRecord) (finopsv1.CostJobStatus, bool, error) {
	if job.EffectiveType() == finopsv1.SubscriptionChargeCollection {
		return job.Status, false, nil
	}
	if rec.Status != finopsv1.Success && rec.Status != finopsv1.Failed {
		return job.Status, false, fmt.Errorf("costjob %s/%s: execution status %q is not written; only %q and %q are",
			job.Namespace, job.Name, rec.Status, finopsv1.Success, finopsv1.Failed)
	}
	if rec.Error != "" {
		rec.Error = redact.Message(rec.Error)
	}
	old := job.Status
	st := finopsv1.CostJobStatus{
		LastExecutionTime:           &rec.ExecutionTime,
		LastExecutionStatus:         rec.Status,
		LastSuccessfulExecutionTime: old.LastSuccessfulExecutionTime,
	}
	if rec.Status == finopsv1.Success {
		st.LastSuccessfulExecutionTime = &rec.ExecutionTime
	}
	n := min(len(old.ExecutionHistory)+1, HistoryLimit)
	st.ExecutionHistory = make([]finopsv1.ExecutionRecord, 0, n)
	st.ExecutionHistory = append(st.ExecutionHistory, rec)
	st.ExecutionHistory = append(st.ExecutionHistory, old.ExecutionHistory[:n-1]...)
	st.ExecutionHistory = slices.Clip(st.ExecutionHistory)
	return st, true, nil
}
