// Package library checks, on a real API server and with the real kubectl,
// that what the condengine library computes is what users see: the
// statuses binding.Evaluate decides, written by the minimal host of package
// libhost, make `kubectl get akbinding -A` print exactly the table that
// binding/kubectl renders from the same objects.
//
// It has its own control plane, so the seed's namespaces and the table's
// rows are its own.
package library
