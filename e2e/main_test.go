package e2e_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/condengine/condengine/e2e/internal/cluster"
	"github.com/condengine/condengine/e2e/internal/crds"
)

// shared is the control plane of this test binary; nil when the binaries are
// not configured, in which case skipReason says why.
var (
	shared     *cluster.Cluster
	skipReason string
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	bins, reason, ok := cluster.FromEnv()
	if !ok {
		skipReason = reason
		return m.Run()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	start := time.Now()
	c, err := cluster.Start(ctx, bins, cluster.Options{KeepDir: os.Getenv("CONDENGINE_E2E_KEEP") != ""})
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2e: start control plane: %v\n", err)
		return 1
	}
	defer c.Stop()
	fmt.Fprintf(os.Stderr, "e2e: control plane ready at %s in %s (dir %s)\n", c.URL, time.Since(start).Round(time.Millisecond), c.Dir)
	dir, err := crds.Dir()
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2e: %v\n", err)
		return 1
	}
	if out, err := c.Kubectl(ctx, "", "apply", "--server-side", "-k", dir); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: apply CRDs: %v\n%s\n%s", err, out, c.Logs())
		return 1
	}
	if _, err := c.Kubectl(ctx, "", "wait", "--for=condition=Established", "--timeout=60s", "crd", "--all"); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: wait for CRDs: %v\n", err)
		return 1
	}
	shared = c
	code := m.Run()
	if code != 0 {
		fmt.Fprint(os.Stderr, c.Logs())
	}
	return code
}

// needCluster returns the shared control plane, or skips the test.
func needCluster(t *testing.T) *cluster.Cluster {
	t.Helper()
	if shared == nil {
		t.Skip(skipReason)
	}
	return shared
}
