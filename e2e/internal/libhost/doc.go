// Package libhost is the smallest host of binding.Evaluate that writes to a
// real API server: each Step lists the three Agent Kourier kinds, evaluates
// them as one snapshot, and applies every result the engine marks for
// writing, with server-side apply on the status subresource under the field
// manager agent-kourier.
//
// It is not an operator (no watches, no writer gap, no leader election):
// the examples module has that. It exists so the e2e tests can show that
// what the library computes is, byte for byte, what kubectl prints, without
// depending on another module, and so the performance test has a baseline.
//
// # Decisions
//
//   - Every write carries the resourceVersion of the object that was
//     evaluated. The status subresource ignores a UID sent with a write, so
//     without it a status computed for a deleted Binding could land on one
//     created again under its name. A conflict is not an error: the next
//     Step sees the new object.
package libhost
