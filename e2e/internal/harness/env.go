package harness

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"k8s.io/client-go/dynamic"

	"github.com/condengine/condengine/e2e/internal/cluster"
	"github.com/condengine/condengine/e2e/internal/kube"
)

// Env is one test's handle on the package's control plane: the test, a
// context that ends with it (or after its timeout), the cluster and a
// dynamic client. Test packages embed it in their own env.
type Env struct {
	T   *testing.T
	Ctx context.Context
	C   *cluster.Cluster
	Dyn dynamic.Interface
}

// NewEnv skips t when there is no control plane (see Need), and otherwise
// gives it an Env whose context lasts at most timeout.
func NewEnv(t *testing.T, timeout time.Duration) *Env {
	t.Helper()
	c := Need(t)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	dyn, err := dynamic.NewForConfig(c.RESTConfig())
	require.NoError(t, err)
	return &Env{T: t, Ctx: ctx, C: c, Dyn: dyn}
}

// Kubectl runs kubectl with stdin and fails the test on error.
func (e *Env) Kubectl(stdin string, args ...string) string {
	e.T.Helper()
	out, err := e.C.Kubectl(e.Ctx, stdin, args...)
	require.NoError(e.T, err, out)
	return out
}

// Table runs `kubectl get args...` and cuts its output into cells.
func (e *Env) Table(args ...string) kube.Table {
	e.T.Helper()
	out := e.Kubectl("", append([]string{"get"}, args...)...)
	tbl, err := kube.ParseTable(out)
	require.NoError(e.T, err, out)
	return tbl
}
