package cluster

import (
	"fmt"
	"os"
	"strings"
)

// The environment variables that name the binaries; e2e/run.sh sets all three.
const (
	EnvEtcd      = "CONDENGINE_E2E_ETCD"
	EnvAPIServer = "CONDENGINE_E2E_KUBE_APISERVER"
	EnvKubectl   = "CONDENGINE_E2E_KUBECTL"
)

// Binaries are the paths of the three programs an e2e run needs.
type Binaries struct {
	Etcd      string
	APIServer string
	Kubectl   string
}

// FromEnv reads the binaries' paths from the environment. When any is unset
// or names no executable file, ok is false and reason says which, in words
// fit for t.Skip.
func FromEnv() (bins Binaries, reason string, ok bool) {
	bins = Binaries{
		Etcd:      os.Getenv(EnvEtcd),
		APIServer: os.Getenv(EnvAPIServer),
		Kubectl:   os.Getenv(EnvKubectl),
	}
	var problems []string
	for _, b := range []struct{ env, path string }{
		{EnvEtcd, bins.Etcd},
		{EnvAPIServer, bins.APIServer},
		{EnvKubectl, bins.Kubectl},
	} {
		if b.path == "" {
			problems = append(problems, b.env+" is unset")
			continue
		}
		fi, err := os.Stat(b.path)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", b.env, err))
			continue
		}
		if fi.IsDir() || fi.Mode().Perm()&0o111 == 0 {
			problems = append(problems, fmt.Sprintf("%s: %s is not an executable file", b.env, b.path))
		}
	}
	if len(problems) > 0 {
		return bins, "no real control plane (" + strings.Join(problems, "; ") +
			"); run e2e/run.sh to build the binaries and run these tests", false
	}
	return bins, "", true
}
