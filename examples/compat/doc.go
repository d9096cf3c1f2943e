// Package compat holds the tests that show the API types of
// api/agentkourier/v1alpha1 and api/finops/v1alpha1 meeting the tools a
// controller-runtime host uses: a scheme with both groups registered,
// controller-runtime's fake client (create, get, list, deepcopy), a
// server-side apply of status that carries only this controller's
// condition types, and kstatus (sigs.k8s.io/cli-utils), which kubectl
// wait, Flux and Argo CD health checks read. The package has no non-test
// code; docs/kstatus.md is the prose for the kstatus test.
//
// # Decisions
//
//   - The fake client is told the Binding's structure by a type converter
//     built from the generated CRD in config/crd, not from a hand-written
//     schema, so the test fails if the generator ever stops marking
//     status.conditions as a map keyed by type.
package compat
