package v1alpha1

import (
	"encoding/json"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// JobType is spec.type: which collection a CostJob runs.
type JobType string

// The two job types.
const (
	// ResourceCostCollection pulls hourly allocations from OpenCost; its
	// runs write the execution record on the CostJob.
	ResourceCostCollection JobType = "ResourceCostCollection"
	// SubscriptionChargeCollection charges Subscriptions; its status
	// stays empty.
	SubscriptionChargeCollection JobType = "SubscriptionChargeCollection"
)

// ExecutionStatus is the outcome of one run.
type ExecutionStatus string

// Outcome values. Only Success and Failed are ever written; the schema
// also admits Error (records) and Pending (lastExecutionStatus), which no
// writer produces.
const (
	Success ExecutionStatus = "Success"
	Failed  ExecutionStatus = "Failed"
	Error   ExecutionStatus = "Error"
	Pending ExecutionStatus = "Pending"
)

// CostJob schedules a collection run as a CronJob. It carries no
// conditions.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Namespaced,categories=finops
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Type",type=string,JSONPath=`.spec.type`
// +kubebuilder:printcolumn:name="Last Status",type=string,JSONPath=`.status.lastExecutionStatus`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type CostJob struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the job's type, interval, timeouts and resources.
	// +kubebuilder:pruning:PreserveUnknownFields
	Spec CostJobSpec `json:"spec,omitempty"`
	// Status is written by ResourceCostCollection runs.
	// +kubebuilder:pruning:PreserveUnknownFields
	Status CostJobStatus `json:"status,omitempty"`
}

// CostJobSpec is what the user writes on a CostJob. Durations are kept as
// written (Go duration strings); the timeouts are read only by
// ResourceCostCollection runs.
type CostJobSpec struct {
	// Type defaults to ResourceCostCollection.
	Type JobType `json:"type,omitempty"`
	// Interval defaults to 24h and maps to a cron schedule.
	Interval string `json:"interval,omitempty"`

	// DatabaseInitTimeout bounds the database connect (default 2m).
	DatabaseInitTimeout string `json:"databaseInitTimeout,omitempty"`
	// KubernetesOperationTimeout bounds reading the CostJob back (1m).
	KubernetesOperationTimeout string `json:"kubernetesOperationTimeout,omitempty"`
	// OpenCostFetchTimeout bounds each hour's OpenCost fetch (2m).
	OpenCostFetchTimeout string `json:"openCostFetchTimeout,omitempty"`
	// DatabaseInsertTimeout bounds finalizing leftover rows (3m).
	DatabaseInsertTimeout string `json:"databaseInsertTimeout,omitempty"`
	// StatusUpdateTimeout bounds writing the execution record (1m).
	StatusUpdateTimeout string `json:"statusUpdateTimeout,omitempty"`
	// HTTPClientTimeout is parsed and read by nothing (90s).
	HTTPClientTimeout string `json:"httpClientTimeout,omitempty"`
	// DatabaseViewsRefreshTimeout is accepted and ignored (the view it
	// bounded no longer exists).
	DatabaseViewsRefreshTimeout string `json:"databaseViewsRefreshTimeout,omitempty"`

	// Resources replaces the loader container's whole resources block;
	// kept raw (a core/v1 ResourceRequirements).
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:validation:Type=object
	// +kubebuilder:pruning:PreserveUnknownFields
	Resources json.RawMessage `json:"resources,omitempty"`
	// Sharding splits a ResourceCostCollection hour across namespaces.
	// +kubebuilder:pruning:PreserveUnknownFields
	Sharding *Sharding `json:"sharding,omitempty"`
}

// Sharding is the opt-in namespace sharding of a ResourceCostCollection.
type Sharding struct {
	// NamespacesPerShard defaults to 25.
	NamespacesPerShard int32 `json:"namespacesPerShard,omitempty"`
	// Concurrency defaults to 4.
	Concurrency int32 `json:"concurrency,omitempty"`
}

// CostJobStatus is written by ResourceCostCollection runs, never by the
// reconciler; it stays empty on a SubscriptionChargeCollection CostJob.
type CostJobStatus struct {
	// ExecutionHistory holds the newest runs, newest first.
	ExecutionHistory []ExecutionRecord `json:"executionHistory,omitempty"`
	// LastExecutionTime is the newest record's time, whatever its outcome.
	LastExecutionTime *metav1.Time `json:"lastExecutionTime,omitempty"`
	// LastExecutionStatus is the newest record's outcome.
	LastExecutionStatus ExecutionStatus `json:"lastExecutionStatus,omitempty"`
	// LastSuccessfulExecutionTime moves only on a successful run.
	LastSuccessfulExecutionTime *metav1.Time `json:"lastSuccessfulExecutionTime,omitempty"`
}

// ExecutionRecord is one run's outcome.
//
// +kubebuilder:pruning:PreserveUnknownFields
type ExecutionRecord struct {
	// ExecutionTime is when the run happened.
	ExecutionTime metav1.Time `json:"executionTime"`
	// Status is Success or Failed.
	Status ExecutionStatus `json:"status"`
	// Duration is the run's length as the run wrote it.
	Duration string `json:"duration,omitempty"`
	// Error is the failure text of a Failed run.
	Error string `json:"error,omitempty"`
}

// EffectiveType is spec.type with its default applied.
func (j *CostJob) EffectiveType() JobType {
	if j.Spec.Type == "" {
		return ResourceCostCollection
	}
	return j.Spec.Type
}

// CostJobList is a list of CostJobs.
//
// +kubebuilder:object:root=true
type CostJobList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	// Items are the CostJobs.
	Items []CostJob `json:"items"`
}
