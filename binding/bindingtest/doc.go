// Package bindingtest helps test code that uses package binding: builders
// for Bindings, AgentBackends, ChatConnections and probe observations with
// sensible valid defaults, rapid generators of whole snapshots (conflicts,
// cross-namespace references, memory of old and gone objects, probe
// results of every kind, statuses left by earlier writers), Apply to play
// a result back as the objects' status, and CheckInvariants, which any
// test (or another operator's) can run on a snapshot and its result.
//
// System is the binding system as a value (system.System) for the tools
// that take any system: the conformance driver, the scenario runner, the
// commands. Its plumbing is here: Snapshot reads a binding scenario into
// a snapshot (with DefaultBroker where the file leaves the broker out),
// Scenario writes one back, Run evaluates a scenario file (the scenario
// runner of the system) and Generate draws one, pushed toward the cases
// the generators rarely reach. It lives in this package, and not in
// package binding, because a generator links package testing, which a
// host that imports the engine must not get.
//
// Generated snapshots plant a canary string (Canary) in every text of a
// namespace's objects and another (ProbeCanary) in every raw probe
// output, so a property can search every message for a leak.
package bindingtest
