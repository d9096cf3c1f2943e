// Package finopstest draws whole FinOps snapshots for property tests and
// differential conformance: the books, Offerings and Subscription
// families of the per-kind test packages together, some evaluations
// already applied (so statuses look as an earlier reconcile left them),
// then the events that change a world between two reconciles.
//
// CostJobs and Providers draw the two kinds the reconciler writes no
// status for, for worlds that must show a host leaves them alone; the
// snapshots SnapshotGen draws hold neither.
package finopstest
