// Package e2e holds the end-to-end tests of condengine: they start a real
// etcd and kube-apiserver (package cluster), apply the CustomResourceDefinitions
// of config/crd, write statuses the way the host operators do and read them
// back with the real kubectl. One test builds the kubectl plugin of
// cmd/kubectl-condengine and runs `kubectl condengine audit` through the
// real kubectl against statuses a wrong and then a correct host wrote
// (TestKubectlCondengineAudit_CatchesAWrongReasonUntilTheCorrectHostRuns).
// See README.md for how to run them.
//
// # Decisions
//
//   - One control plane serves every test of this package, started in
//     TestMain: its start costs about 15 s, more than most tests. Tests keep
//     apart by namespace and by a label that `kubectl get -l` selects on.
//   - The audit test builds the plugin itself with `go build` (the go
//     command must be on PATH, as it is for `go test`), into a temporary
//     directory: the plugin is a module of its own, not a package the
//     test can import, and kubectl finds plugins only as files on PATH.
//   - Tests that need the binaries skip with the reason when e2e/run.sh did
//     not provide them; the offline checks of the manifests always run.
package e2e
