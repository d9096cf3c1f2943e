package hostcheck_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/condengine/condengine/binding/policy"
	"github.com/condengine/condengine/examples/bindinghost"
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
	for _, p := range b.env.Probes() {
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

func TestBindingHostUnderFaults(t *testing.T) {
	hostcheck.Check(t, func(c client.Client, env hostcheck.Env) (reconcile.Reconciler, error) {
		h, err := bindinghost.New(c, policy.DefaultLimits(), "")
		if err != nil {
			return nil, err
		}
		h.SetStartedAt(env.StartedAt)
		return &bindingHost{h: h, env: env}, nil
	}, hostcheck.Options{System: hostcheck.Binding})
}
