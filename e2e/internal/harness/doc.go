// Package harness gives each e2e test package one control plane: Main, called
// from TestMain, starts it (when the binaries are configured) and applies the
// CustomResourceDefinitions of config/crd; Need hands it to a test, or skips
// the test with the reason the control plane is missing.
//
// Each package that calls Main gets its own etcd and kube-apiserver, so the
// packages that list every object of a kind (kubectl get -A, the performance
// run's request count) see only their own.
package harness
