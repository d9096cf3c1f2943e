package costjob

import (
	"fmt"
	"slices"

	"github.com/condengine/condengine/redact"
)

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
func Record(job CostJob, rec ExecutionRecord) (Status, bool, error) {
	if job.EffectiveType() == SubscriptionChargeCollection {
		return job.Status, false, nil
	}
	if rec.Status != Success && rec.Status != Failed {
		return job.Status, false, fmt.Errorf("costjob %s/%s: execution status %q is not written; only %q and %q are",
			job.Namespace, job.Name, rec.Status, Success, Failed)
	}
	if rec.Error != "" {
		rec.Error = redact.Message(rec.Error)
	}
	old := job.Status
	st := Status{
		LastExecutionTime:           &rec.ExecutionTime,
		LastExecutionStatus:         rec.Status,
		LastSuccessfulExecutionTime: old.LastSuccessfulExecutionTime,
	}
	if rec.Status == Success {
		st.LastSuccessfulExecutionTime = &rec.ExecutionTime
	}
	n := min(len(old.ExecutionHistory)+1, HistoryLimit)
	st.ExecutionHistory = make([]ExecutionRecord, 0, n)
	st.ExecutionHistory = append(st.ExecutionHistory, rec)
	st.ExecutionHistory = append(st.ExecutionHistory, old.ExecutionHistory[:n-1]...)
	st.ExecutionHistory = slices.Clip(st.ExecutionHistory)
	return st, true, nil
}
