package host_test

import (
	"context"
	"encoding/json"
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
	unguarded = "the status is applied without the resourceVersion it was computed from"
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
		case unguarded:
			r.Client = unguardedClient{c}
		}
		return r, nil
	}
}

// schedules keeps each run to a fraction of a second; the harness's
// default (DefaultSchedules) is for a host's own CI.
const schedules = 3

func options(faults hostcheck.Fault, schedules int) hostcheck.Options {
	return hostcheck.Options{System: hostcheck.FromSystem(dbsystem.System(), host.Scheme()), Schedules: schedules, Faults: faults}
}

// The host keeps every rule of the harness under each fault kind the
// system draws (Fights is only for a host held to the Binding writer
// policy), and under all of them at once: late, doubled, reordered and
// lost events, failed writes, crashes, failover, clock jumps and late
// observations.
func TestHost_UnderEveryFault(t *testing.T) {
	for _, f := range []hostcheck.Fault{hostcheck.LateEvents, hostcheck.WriteErrors, hostcheck.Crashes, hostcheck.Failover,
		hostcheck.ClockJumps, hostcheck.LateProbes, hostcheck.AllFaults} {
		n := schedules
		if f == hostcheck.AllFaults {
			n = 8
		}
		t.Run(f.String(), func(t *testing.T) { hostcheck.Check(t, newHost(wired), options(f, n)) })
	}
}

// Each planted wiring bug is caught, with a shrunk schedule.
func TestHost_PlantedBugsCaught(t *testing.T) {
	for bug, faults := range map[string]hostcheck.Fault{noLease: hostcheck.Failover, noObserve: hostcheck.LateProbes, unguarded: hostcheck.LateEvents} {
		t.Run(bug, func(t *testing.T) {
			o := options(faults, 3*schedules)
			o.Steps = 20 // a bug shows early; a short schedule shrinks fast
			cx, err := hostcheck.Find(context.Background(), newHost(bug), o)
			if err != nil {
				t.Fatal(err)
			}
			if cx == nil {
				t.Fatalf("not caught in %d schedules", 3*schedules)
			}
			t.Logf("caught by %s, %d events (drawn %d)\n%s", cx.Violation.Rule.ID, cx.Steps, cx.Drawn, cx)
		})
	}
}

// unguardedClient sends every status patch without the resourceVersion
// in its body: a host that applies its status unguarded, so a status
// computed from a stale read lands.
type unguardedClient struct{ client.Client }

func (c unguardedClient) Status() client.SubResourceWriter { return unguardedStatus{c.Client.Status()} }

type unguardedStatus struct{ client.SubResourceWriter }

func (w unguardedStatus) Patch(ctx context.Context, obj client.Object, p client.Patch, opts ...client.SubResourcePatchOption) error {
	data, err := p.Data(obj)
	if err != nil {
		return err
	}
	var body map[string]any
	if err := json.Unmarshal(data, &body); err != nil {
		return err
	}
	if meta, ok := body["metadata"].(map[string]any); ok {
		delete(meta, "resourceVersion")
	}
	if data, err = json.Marshal(body); err != nil {
		return err
	}
	return w.SubResourceWriter.Patch(ctx, obj, client.RawPatch(p.Type(), data), opts...)
}
