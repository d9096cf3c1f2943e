package hostcheck_test

import (
	"context"
	"errors"
	"maps"
	"slices"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/condengine/condengine/binding/policy"
	"github.com/condengine/condengine/examples/bindinghost"
	"github.com/condengine/condengine/examples/finopshost"
	"github.com/condengine/condengine/hostcheck"
)

// bindingHost runs examples/bindinghost as a reconciler: each request is
// one pass, with the lease, the start and the probe results from the
// harness.
type bindingHost struct {
	h   *bindinghost.Host
	env hostcheck.Env
}

func (b *bindingHost) Reconcile(ctx context.Context, _ reconcile.Request) (reconcile.Result, error) {
	b.h.SetLeader(b.env.Leader())
	for _, p := range hostcheck.BindingProbes(b.env) {
		b.h.RecordProbe(p)
	}
	now := b.env.Now()
	rep, err := b.h.RunOnce(ctx, now)
	if err != nil {
		return reconcile.Result{}, err
	}
	var failed error
	for _, e := range rep.Failed {
		failed = errors.Join(failed, e)
	}
	if failed != nil {
		return reconcile.Result{}, failed
	}
	if !rep.NextWrite.IsZero() {
		return reconcile.Result{RequeueAfter: max(rep.NextWrite.Sub(now), time.Millisecond)}, nil
	}
	return reconcile.Result{}, nil
}

// newBindingHost builds examples/bindinghost for the harness.
func newBindingHost(c client.Client, env hostcheck.Env) (reconcile.Reconciler, error) {
	h, err := bindinghost.New(c, policy.DefaultLimits(), "")
	if err != nil {
		return nil, err
	}
	h.SetStartedAt(env.StartedAt)
	return &bindingHost{h: h, env: env}, nil
}

func TestBindingHostUnderFaults(t *testing.T) {
	hostcheck.Check(t, newBindingHost, hostcheck.Options{System: hostcheck.Binding()})
}

// finopsRunner runs examples/finopshost as a reconciler: each request is
// one pass, made only while the replica holds the lease (the host asks
// its manager for leader election), and a request comes back only when
// an object of its name asked for a retry, at the host's backoff.
type finopsRunner struct {
	h   *finopshost.Host
	env hostcheck.Env
}

func (f *finopsRunner) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	if !f.env.Leader() {
		return reconcile.Result{}, nil
	}
	now := f.env.Now()
	f.h.SetCollection(hostcheck.FinOpsCollection(f.env))
	rep, err := f.h.RunOnce(ctx, now)
	if err != nil {
		return reconcile.Result{}, err
	}
	var failed error
	for _, k := range slices.Sorted(maps.Keys(rep.Errors)) {
		failed = errors.Join(failed, rep.Errors[k])
	}
	if failed != nil {
		return reconcile.Result{}, failed
	}
	return reconcile.Result{RequeueAfter: rep.RequeueAfterOf(req.NamespacedName, now)}, nil
}

func TestFinOpsHostUnderFaults(t *testing.T) {
	hostcheck.Check(t, func(c client.Client, env hostcheck.Env) (reconcile.Reconciler, error) {
		h, err := finopshost.New(c, hostcheck.FinOpsNamespace)
		if err != nil {
			return nil, err
		}
		return &finopsRunner{h: h, env: env}, nil
	}, hostcheck.Options{System: hostcheck.FinOps()})
}
