// Package finopstest draws whole FinOps snapshots for property tests and
// differential conformance: the books, Offerings and Subscription
// families of the per-kind test packages together, some evaluations
// already applied (so statuses look as an earlier reconcile left them),
// then the events that change a world between two reconciles.
package finopstest
