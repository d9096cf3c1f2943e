//go:build tools

// Package etcd records the etcd server that e2e/run.sh builds, so that
// `go mod tidy` keeps its dependencies in go.sum.
package etcd

import _ "go.etcd.io/etcd/server/v3"
