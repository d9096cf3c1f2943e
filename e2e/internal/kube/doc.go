// Package kube holds what the e2e tests share to talk to the API server: the
// resources of the CRDs, builders for the objects, a server-side apply of the
// status subresource as the host operators make it, and a reader of kubectl's
// tables.
package kube
