package costjob

import (
	"time"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
)

// Timeouts are the durations a ResourceCostCollection run works with,
// defaults applied. A SubscriptionChargeCollection run reads none of them.
type Timeouts struct {
	// DatabaseInit bounds the database connect.
	DatabaseInit time.Duration
	// KubernetesOperation bounds reading the CostJob back.
	KubernetesOperation time.Duration
	// OpenCostFetch bounds each hour's OpenCost fetch.
	OpenCostFetch time.Duration
	// DatabaseInsert bounds finalizing leftover allocation rows.
	DatabaseInsert time.Duration
	// StatusUpdate bounds writing the execution record.
	StatusUpdate time.Duration
	// HTTPClient is parsed and passed on, but nothing reads it.
	HTTPClient time.Duration
}

// DefaultTimeouts are the durations of a CostJob that sets none. It is a
// function so no caller can change the defaults another one sees.
func DefaultTimeouts() Timeouts {
	return Timeouts{
		DatabaseInit:        2 * time.Minute,
		KubernetesOperation: time.Minute,
		OpenCostFetch:       2 * time.Minute,
		DatabaseInsert:      3 * time.Minute,
		StatusUpdate:        time.Minute,
		HTTPClient:          90 * time.Second,
	}
}

// Sharding defaults of a ResourceCostCollection that opts in.
const (
	DefaultNamespacesPerShard = 25
	DefaultShardConcurrency   = 4
)

// EffectiveTimeouts returns the spec's durations with defaults applied. A value
// that does not parse, or is not positive, keeps its default: the run
// logs such a value and goes on, it does not fail.
func EffectiveTimeouts(s finopsv1.CostJobSpec) Timeouts {
	t := DefaultTimeouts()
	for _, f := range []struct {
		in  string
		out *time.Duration
	}{
		{s.DatabaseInitTimeout, &t.DatabaseInit},
		{s.KubernetesOperationTimeout, &t.KubernetesOperation},
		{s.OpenCostFetchTimeout, &t.OpenCostFetch},
		{s.DatabaseInsertTimeout, &t.DatabaseInsert},
		{s.StatusUpdateTimeout, &t.StatusUpdate},
		{s.HTTPClientTimeout, &t.HTTPClient},
	} {
		if d, err := time.ParseDuration(f.in); err == nil && d > 0 {
			*f.out = d
		}
	}
	return t
}

// EffectiveSharding returns the sharding settings with defaults applied, and false
// when the CostJob did not opt in.
func EffectiveSharding(s finopsv1.CostJobSpec) (namespacesPerShard, concurrency int32, enabled bool) {
	if s.Sharding == nil {
		return 0, 0, false
	}
	namespacesPerShard, concurrency = s.Sharding.NamespacesPerShard, s.Sharding.Concurrency
	if namespacesPerShard <= 0 {
		namespacesPerShard = DefaultNamespacesPerShard
	}
	if concurrency <= 0 {
		concurrency = DefaultShardConcurrency
	}
	return namespacesPerShard, concurrency, true
}
