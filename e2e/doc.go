// Package e2e holds the end-to-end tests of condengine: they start a real
// etcd and kube-apiserver (package cluster), apply the CustomResourceDefinitions
// of config/crd, write statuses the way the host operators do and read them
// back with the real kubectl. See README.md for how to run them.
//
// # Decisions
//
//   - One control plane serves every test of this package, started in
//     TestMain: its start costs about 15 s, more than most tests. Tests keep
//     apart by namespace and by a label that `kubectl get -l` selects on.
//   - Tests that need the binaries skip with the reason when e2e/run.sh did
//     not provide them; the offline checks of the manifests always run.
package e2e
