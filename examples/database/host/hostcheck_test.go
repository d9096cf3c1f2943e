package host_test

import (
	"context"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/condengine/condengine/examples/database/dbsystem"
	"github.com/condengine/condengine/examples/database/host"
	"github.com/condengine/condengine/hostcheck"
)

// The host's wirings to the harness: the correct one, and two planted
// wiring bugs a real host can have.
const (
	wired     = "correct"
	noLease   = "the reconciler runs without the lease, so a deposed leader keeps writing"
	noObserve = "the reconciler is not handed what the host observed"
)

func newHost(wiring string) hostcheck.NewHost {
	return func(c client.Client, env hostcheck.Env) (reconcile.Reconciler, error) {
		r := &host.Reconciler{Client: c, Now: env.Now, Leader: env.Leader,
			Observed: func() (dbsystem.Observed, error) { return hostcheck.ObservedAs[dbsystem.Observed](env) }}
		switch wiring {
		case noLease:
			r.Leader = nil
		case noObserve:
			r.Observed = func() (dbsystem.Observed, error) { return dbsystem.Observed{}, nil }
		}
		return r, nil
	}
}

// schedules keeps the run to a few seconds; the harness's default is for
// a host's own CI.
const schedules = 20

func options() hostcheck.Options {
	return hostcheck.Options{System: hostcheck.FromSystem(dbsystem.System(), host.Scheme()), Schedules: schedules}
}

// The host keeps every rule of the harness under every fault kind the
// system draws: late and lost events, failed writes, crashes, failover,
// clock jumps and late observations.
func TestHost_UnderEveryFault(t *testing.T) {
	hostcheck.Check(t, newHost(wired), options())
}

// Each planted wiring bug is caught, with a shrunk schedule.
func TestHost_PlantedBugsCaught(t *testing.T) {
	for _, bug := range []string{noLease, noObserve} {
		t.Run(bug, func(t *testing.T) {
			cx, err := hostcheck.Find(context.Background(), newHost(bug), options())
			if err != nil {
				t.Fatal(err)
			}
			if cx == nil {
				t.Fatalf("not caught in %d schedules", schedules)
			}
			t.Logf("caught by %s, %d events (drawn %d)\n%s", cx.Violation.Rule.ID, cx.Steps, cx.Drawn, cx)
		})
	}
}
