package operator_test

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"

	"github.com/condengine/condengine/examples/bindinghost"
)

// replica is one broker process: a Binding host and its place in the
// election of a Lease, through client-go's leader election.
type replica struct {
	id      string
	host    *bindinghost.Host
	leading atomic.Bool
	stop    context.CancelFunc
	done    sync.WaitGroup
}

// elect starts r's elector. A short lease keeps the test short; stopping
// does not release the Lease, as when a process is killed.
func (e *env) elect(r *replica, cs kubernetes.Interface) {
	e.T.Helper()
	ctx, cancel := context.WithCancel(e.Ctx)
	r.stop = cancel
	lock := &resourcelock.LeaseLock{
		LeaseMeta:  metav1.ObjectMeta{Namespace: "ak-system", Name: "agent-kourier"},
		Client:     cs.CoordinationV1(),
		LockConfig: resourcelock.ResourceLockConfig{Identity: r.id},
	}
	le, err := leaderelection.NewLeaderElector(leaderelection.LeaderElectionConfig{
		Lock:            lock,
		LeaseDuration:   4 * time.Second,
		RenewDeadline:   3 * time.Second,
		RetryPeriod:     500 * time.Millisecond,
		ReleaseOnCancel: false,
		Name:            "agent-kourier",
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(context.Context) { r.host.SetLeader(true); r.leading.Store(true) },
			OnStoppedLeading: func() { r.host.SetLeader(false); r.leading.Store(false) },
		},
	})
	require.NoError(e.T, err)
	r.done.Go(func() { le.Run(ctx) })
	e.T.Cleanup(func() { cancel(); r.done.Wait() })
}

func (e *env) waitLeading(r *replica, within time.Duration) {
	e.T.Helper()
	require.Eventually(e.T, r.leading.Load, within, 100*time.Millisecond, "%s did not become the leader", r.id)
}

func (e *env) resourceVersions() map[string]string {
	e.T.Helper()
	out := map[string]string{}
	for k, b := range e.bindings() {
		out[k] = b.ResourceVersion
	}
	return out
}

// TestBindingHost_StandbyComputesButNeverWrites_FailoverKeepsTheGoodStatus:
// two replicas elect a leader through a Lease. The standby evaluates every
// Binding and writes nothing. When the leader is killed, the standby takes
// the Lease and writing, and its first passes, with no probe of its own yet,
// do not write Pending over the good statuses the old leader wrote.
func TestBindingHost_StandbyComputesButNeverWrites_FailoverKeepsTheGoodStatus(t *testing.T) {
	e := newEnv(t)
	e.Kubectl("", "create", "namespace", "ak-system")
	e.seed()
	cs, err := kubernetes.NewForConfig(e.C.RESTConfig())
	require.NoError(t, err)

	a := &replica{id: "broker-a", host: e.host()}
	b := &replica{id: "broker-b", host: e.host()}
	a.host.SetLeader(false)
	b.host.SetLeader(false)
	e.elect(a, cs)
	e.waitLeading(a, 15*time.Second)
	e.elect(b, cs)

	e.probeAll(a.host)
	t0 := time.Now()
	repA := e.run(a.host, t0)
	require.Len(t, repA.Written, 3)
	written := e.resourceVersions()

	repB := e.run(b.host, t0)
	require.False(t, b.leading.Load())
	require.Equal(t, 3, repB.Evaluated, "the standby computes")
	require.Empty(t, repB.Written, "the standby never writes")
	require.Equal(t, written, e.resourceVersions())

	a.stop() // the leader dies without handing the Lease back
	e.waitLeading(b, 20*time.Second)
	holder := e.Kubectl("", "get", "lease", "agent-kourier", "-n", "ak-system", "-o", "jsonpath={.spec.holderIdentity}")
	require.Equal(t, "broker-b", strings.TrimSpace(holder))

	// The new leader has no probe results yet: its probed conditions are
	// Pending, and Pending is not written over a good status.
	repB = e.run(b.host, t0.Add(time.Minute))
	require.Empty(t, repB.Written)
	require.Equal(t, written, e.resourceVersions())
	require.Equal(t, "True OK", readyOf(e.bindings()["team-a/team-a-chat"]))
	require.Equal(t, "True OK", readyOf(e.bindings()["team-b/support"]))

	// Its first probes agree with what is written: still nothing to write.
	e.probeAll(b.host)
	require.Empty(t, e.run(b.host, t0.Add(2*time.Minute)).Written)
	require.Equal(t, written, e.resourceVersions())
}
