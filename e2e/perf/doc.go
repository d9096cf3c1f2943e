// Package perf measures Binding status on a real API server at 1,000
// Bindings: the time from creating them to kubectl showing every final
// READY, the number of status writes, and the API server's request count
// (apiserver_request_total) for the run. It runs only when
// CONDENGINE_E2E_PERF is set, on its own control plane so the request count
// is the run's alone.
package perf
