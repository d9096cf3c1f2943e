// Package operator runs the example host operators of the examples module
// (bindinghost, finopshost) against a real API server and reads what they
// wrote with the real kubectl: the seed's table, field ownership, foreign
// edits and fights, kubectl wait after an edit, re-created Bindings, a
// FinOps family, and a standby that takes over through a Lease.
//
// The hosts are driven with RunOnce and an explicit instant, so the
// writer's gaps and backoffs (seconds to minutes) are crossed by moving the
// instant, not by sleeping. The package has its own control plane.
package operator
