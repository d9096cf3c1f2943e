// Package cluster starts a throwaway Kubernetes control plane for the e2e
// tests: one etcd and one kube-apiserver, both built from source by
// e2e/run.sh, listening on loopback ports picked at start, with their data,
// certificates and keys in a temporary directory that Stop removes.
//
// The binaries are found through environment variables (see [EnvEtcd],
// [EnvAPIServer], [EnvKubectl]). When one is unset, [FromEnv] says why, and
// tests skip instead of failing, so that `go test ./...` in the e2e module
// works on a machine that never ran e2e/run.sh.
//
// # Decisions
//
//   - Only 127.0.0.1 is ever contacted or listened on. The API server's
//     endpoint reconciler is off (--endpoint-reconciler-type=none), because
//     the default one would publish the loopback advertise address into the
//     default/kubernetes Endpoints, which validation refuses.
//   - Authentication is one static bearer token in group system:masters;
//     authorization is RBAC, as on a real cluster, so the admin token works
//     through the same path a controller's service account would.
//   - No kube-controller-manager runs: nothing garbage-collects owned objects
//     or finalizes namespaces. Tests use fresh namespaces and never wait for a
//     namespace to go away.
//   - etcd runs with --unsafe-no-fsync: its data is thrown away at the end,
//     and fsync on a shared CI disk would dominate the performance test.
//   - Both processes run in their own process group and are stopped by that
//     group (SIGTERM, then SIGKILL after a grace period), so a child they
//     spawn cannot outlive the test.
package cluster
