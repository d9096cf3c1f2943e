package costjob

import (
	"github.com/condengine/condengine/api/finops/v1alpha1"
)

// The CostJob API types are declared in api/finops/v1alpha1; the names
// below are aliases kept so that existing callers compile unchanged. New
// code should import v1alpha1.

// APIVersion and Kind identify a CostJob manifest.
const (
	APIVersion = v1alpha1.APIVersion
	Kind       = v1alpha1.KindCostJob
)

// The two job types.
const (
	ResourceCostCollection       = v1alpha1.ResourceCostCollection
	SubscriptionChargeCollection = v1alpha1.SubscriptionChargeCollection
)

// Outcome values. Only Success and Failed are ever written; Record
// refuses the other two.
const (
	Success = v1alpha1.Success
	Failed  = v1alpha1.Failed
	Error   = v1alpha1.Error
	Pending = v1alpha1.Pending
)

// HistoryLimit is how many execution records status keeps.
const HistoryLimit = 10

// Aliases of the v1alpha1 types.
type (
	// CostJob is v1alpha1.CostJob.
	CostJob = v1alpha1.CostJob
	// JobType is v1alpha1.JobType.
	JobType = v1alpha1.JobType
	// ExecutionStatus is v1alpha1.ExecutionStatus.
	ExecutionStatus = v1alpha1.ExecutionStatus
	// Spec is v1alpha1.CostJobSpec.
	Spec = v1alpha1.CostJobSpec
	// Sharding is v1alpha1.Sharding.
	Sharding = v1alpha1.Sharding
	// Status is v1alpha1.CostJobStatus.
	Status = v1alpha1.CostJobStatus
	// ExecutionRecord is v1alpha1.ExecutionRecord.
	ExecutionRecord = v1alpha1.ExecutionRecord
)
