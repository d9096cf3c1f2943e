package harness

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/condengine/condengine/e2e/internal/cluster"
	"github.com/condengine/condengine/e2e/internal/crds"
)

// EnvKeep, when set, keeps the control plane's directory (its logs) after the run.
const EnvKeep = "CONDENGINE_E2E_KEEP"

var (
	shared     *cluster.Cluster
	skipReason string
)

// Main runs the package's tests with a control plane, and returns the exit
// code for os.Exit. Without the binaries it runs them anyway: Need skips the
// ones that need a server.
func Main(m *testing.M) int {
	bins, reason, ok := cluster.FromEnv()
	if !ok {
		skipReason = reason
		return m.Run()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	start := time.Now()
	c, err := cluster.Start(ctx, bins, cluster.Options{KeepDir: os.Getenv(EnvKeep) != ""})
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2e: start control plane: %v\n", err)
		return 1
	}
	defer c.Stop()
	fmt.Fprintf(os.Stderr, "e2e: control plane ready at %s in %s\n", c.URL, time.Since(start).Round(time.Millisecond))
	if err := applyCRDs(ctx, c); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: %v\n%s", err, c.Logs())
		return 1
	}
	shared = c
	code := m.Run()
	if code != 0 {
		fmt.Fprint(os.Stderr, c.Logs())
		if c.Dir != "" && os.Getenv(EnvKeep) != "" {
			fmt.Fprintf(os.Stderr, "e2e: logs kept in %s\n", c.Dir)
		}
	}
	return code
}

// applyCRDs applies config/crd with kubectl, as a user would, and waits until
// every CRD is Established, so the first test does not race discovery.
func applyCRDs(ctx context.Context, c *cluster.Cluster) error {
	dir, err := crds.Dir()
	if err != nil {
		return err
	}
	if _, err := c.Kubectl(ctx, "", "apply", "--server-side", "-k", dir); err != nil {
		return fmt.Errorf("apply CRDs: %w", err)
	}
	if _, err := c.Kubectl(ctx, "", "wait", "--for=condition=Established", "--timeout=60s", "crd", "--all"); err != nil {
		return fmt.Errorf("wait for CRDs: %w", err)
	}
	return nil
}

// Need returns the package's control plane, or skips t saying why there is none.
func Need(t testing.TB) *cluster.Cluster {
	t.Helper()
	if shared == nil {
		t.Skip(skipReason)
	}
	return shared
}
