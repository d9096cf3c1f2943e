// Package finopstest draws whole FinOps snapshots for property tests and
// differential conformance: the books, Offerings and Subscription
// families of the per-kind test packages together, some evaluations
// already applied (so statuses look as an earlier reconcile left them),
// then the events that change a world between two reconciles.
//
// System is the finops system as a value (system.System) for the tools
// that take any system. Snapshot reads a finops scenario into a
// snapshot, Scenario writes one back, Run evaluates a scenario file (the
// scenario runner of the system) and Generate draws one, pushed toward
// the cases the generators rarely reach.
//
// CostJobs and Providers draw the two kinds the reconciler writes no
// status for, for worlds that must show a host leaves them alone; the
// snapshots SnapshotGen draws hold neither.
package finopstest
