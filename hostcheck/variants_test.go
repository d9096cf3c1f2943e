package hostcheck_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/condengine/condengine/hostcheck"
)

// Legal variants of a correct host: each schedules its work in a way a
// real controller may, and none may be blamed. Each runs under the
// default budget; hack/soak.sh runs them over many more seeds.

// poll wraps a host that, besides what it asks for, comes back every
// interval: a controller that polls.
func poll(interval time.Duration, inner hostcheck.NewHost) hostcheck.NewHost {
	return func(c client.Client, env hostcheck.Env) (reconcile.Reconciler, error) {
		h, err := inner(c, env)
		if err != nil {
			return nil, err
		}
		return reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			res, err := h.Reconcile(ctx, req)
			if err != nil {
				return res, err
			}
			if res.RequeueAfter == 0 || res.RequeueAfter > interval {
				res.RequeueAfter = interval
			}
			return res, nil
		}), nil
	}
}

// idleEveryOther wraps a host that, every other pass, does nothing and
// comes back a second later: a rate limiter of its own.
func idleEveryOther(inner hostcheck.NewHost) hostcheck.NewHost {
	return func(c client.Client, env hostcheck.Env) (reconcile.Reconciler, error) {
		h, err := inner(c, env)
		if err != nil {
			return nil, err
		}
		n := 0
		return reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			n++
			if n%2 == 0 {
				return reconcile.Result{RequeueAfter: time.Second}, nil
			}
			return h.Reconcile(ctx, req)
		}), nil
	}
}

// coalesced wraps a host that keeps one requeue for all its requests:
// the request that asked for the earliest one carries it, and every
// other request asks for none while an earlier or equal one is pending.
func coalesced(inner hostcheck.NewHost) hostcheck.NewHost {
	return func(c client.Client, env hostcheck.Env) (reconcile.Reconciler, error) {
		h, err := inner(c, env)
		if err != nil {
			return nil, err
		}
		var mu sync.Mutex
		var wake time.Time
		var owner reconcile.Request
		return reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			res, err := h.Reconcile(ctx, req)
			if err != nil {
				return res, err
			}
			mu.Lock()
			defer mu.Unlock()
			if res.RequeueAfter == 0 {
				if req == owner {
					wake = time.Time{}
				}
				return res, nil
			}
			now := env.Now()
			at := now.Add(res.RequeueAfter)
			if req == owner || wake.IsZero() || !wake.After(now) || at.Before(wake) {
				wake, owner = at, req
				return res, nil
			}
			return reconcile.Result{}, nil
		}), nil
	}
}

func TestVariant_Polls2s(t *testing.T) {
	hostcheck.Check(t, poll(2*time.Second, newBindingHost), hostcheck.Options{System: hostcheck.Binding()})
}

func TestVariant_IdlesEveryOtherPass(t *testing.T) {
	hostcheck.Check(t, idleEveryOther(newHost(correct)), hostcheck.Options{System: hostcheck.Binding()})
}

func TestVariant_OneBindingPerPass(t *testing.T) {
	hostcheck.Check(t, newHost(onePerPass), hostcheck.Options{System: hostcheck.Binding()})
}

func TestVariant_CoalescedRequeue(t *testing.T) {
	hostcheck.Check(t, coalesced(newBindingHost), hostcheck.Options{System: hostcheck.Binding()})
}

func TestVariant_FinOpsPolls2s(t *testing.T) {
	hostcheck.Check(t, poll(2*time.Second, newFinOpsHost(correct)), hostcheck.Options{System: hostcheck.FinOps()})
}

// A host that asks for itself again a millisecond later, forever, and
// never writes, spends the settling reconciles long before the budget's
// virtual time: Settles says so.
func TestSettles_AHostThatNeverLetsTimePass(t *testing.T) {
	busy := func(client.Client, hostcheck.Env) (reconcile.Reconciler, error) {
		return reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
			return reconcile.Result{RequeueAfter: time.Millisecond}, nil
		}), nil
	}
	cx, err := hostcheck.Find(context.Background(), busy, hostcheck.Options{System: hostcheck.FromSystem(gadgets(), gadgetScheme()), Seed: 3, Schedules: 1, Steps: 1})
	if err != nil {
		t.Fatal(err)
	}
	if cx == nil || cx.Violation.Rule.ID != hostcheck.RuleSettles.ID || !strings.Contains(cx.Violation.Detail, "virtual time hardly passed") {
		t.Fatalf("got %v, want Settles for a host that never lets the clock move", cx)
	}
}
