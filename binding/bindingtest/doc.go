// Package bindingtest helps test code that uses package binding: builders
// for Bindings, AgentBackends, ChatConnections and probe observations with
// sensible valid defaults, rapid generators of whole snapshots (conflicts,
// cross-namespace references, memory of old and gone objects, probe
// results of every kind, statuses left by earlier writers), Apply to play
// a result back as the objects' status, and CheckInvariants, which any
// test (or another operator's) can run on a snapshot and its result.
//
// Generated snapshots plant a canary string (Canary) in every text of a
// namespace's objects and another (ProbeCanary) in every raw probe
// output, so a property can search every message for a leak.
package bindingtest
