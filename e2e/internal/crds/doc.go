// Package crds reads the CustomResourceDefinitions kept in config/crd at the
// root of the repository, typed as apiextensions.k8s.io/v1, so that tests can
// check their shape offline and apply them to a real API server.
//
// It lives in the e2e module so that the library never depends on
// k8s.io/apiextensions-apiserver.
package crds
