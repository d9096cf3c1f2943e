package cluster_test

import (
	"fmt"
	"os"

	"github.com/condengine/condengine/e2e/internal/cluster"
)

// A test without the binaries learns why, and skips with that reason.
func ExampleFromEnv() {
	for _, env := range []string{cluster.EnvEtcd, cluster.EnvAPIServer, cluster.EnvKubectl} {
		if old, ok := os.LookupEnv(env); ok {
			defer func() { _ = os.Setenv(env, old) }()
		}
		_ = os.Unsetenv(env)
	}
	_ = os.Setenv(cluster.EnvEtcd, "/nonexistent/etcd")
	defer func() { _ = os.Unsetenv(cluster.EnvEtcd) }()

	_, reason, ok := cluster.FromEnv()
	fmt.Println(ok)
	fmt.Println(reason)
	// Output:
	// false
	// no real control plane (CONDENGINE_E2E_ETCD: stat /nonexistent/etcd: no such file or directory; CONDENGINE_E2E_KUBE_APISERVER is unset; CONDENGINE_E2E_KUBECTL is unset); run e2e/run.sh to build the binaries and run these tests
}
