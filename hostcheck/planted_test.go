package hostcheck_test

import (
	"context"
	"errors"
	"slices"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/policy"
	"github.com/condengine/condengine/hostcheck"
)

// bug is one planted host bug; the zero value is the correct host.
type bug int

const (
	correct bug = iota
	staleRead
	noRequeueOnConflict
	memoryNotRebuilt
	applyAll
	noGuard
	lostDelete
	writeEveryPass
	writeAsStandby
	pendingOnFailover
	fightAtOnce
	retryDropped

	// onePerPass is no bug: a legal variant that, whatever the request,
	// writes the first Binding due and comes back a tick later for the
	// next.
	onePerPass bug = 100
)

var bugNames = map[bug]string{
	staleRead:           "acting on a stale read",
	noRequeueOnConflict: "no requeue after a conflict",
	memoryNotRebuilt:    "memory not rebuilt after a restart",
	applyAll:            "applying every condition",
	noGuard:             "a write without the resourceVersion guard",
	lostDelete:          "a lost delete event never noticed",
	writeEveryPass:      "writing on every pass",
	writeAsStandby:      "writing while not the leader",
	pendingOnFailover:   "a failover that writes Pending over a good status",
	fightAtOnce:         "puts back at once in a fight",
	retryDropped:        "a retry that is dropped",
}

// host is a small Binding host: every request evaluates every Binding
// with the engine and applies, to each that is due, the owned conditions
// under the writer policy. With a bug set, it makes that one mistake.
type host struct {
	c      client.Client
	env    hostcheck.Env
	limits policy.Limits
	bug    bug

	served  binding.ServedMemory
	writers map[types.UID]policy.Memory
	// leadSince is when this incarnation first saw itself the leader.
	leadSince time.Time
	// last is the previous request's listing (staleRead).
	last []akv1.Binding
	// backends is the backend index of the lostDelete host, kept from
	// requests.
	backends map[types.NamespacedName]akv1.AgentBackend
	// known is every Binding the deletedKept host has listed.
	known map[types.UID]akv1.Binding
}

func newHost(b bug) hostcheck.NewHost {
	return func(c client.Client, env hostcheck.Env) (reconcile.Reconciler, error) {
		return &host{c: c, env: env, limits: policy.DefaultLimits(), bug: b,
			writers: map[types.UID]policy.Memory{}, backends: map[types.NamespacedName]akv1.AgentBackend{}}, nil
	}
}

func (h *host) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	now := h.env.Now()
	var bl akv1.BindingList
	var al akv1.AgentBackendList
	var cl akv1.ChatConnectionList
	for _, l := range []client.ObjectList{&bl, &al, &cl} {
		if err := h.c.List(ctx, l); err != nil {
			return reconcile.Result{}, err
		}
	}
	bindings, backends := bl.Items, al.Items
	probes := hostcheck.BindingProbes(h.env)
	snapNow := now
	switch h.bug {
	case deletedKept, probesRelabelled, nowFromObjects:
		bindings, probes, snapNow = h.judgedBug(req, bindings, probes, now)
	case staleRead:
		// Evaluates what the previous request read.
		if h.last != nil {
			bindings = h.last
		}
		h.last = bl.Items
	case lostDelete, memoryNotRebuilt:
		backends = h.indexBackends(ctx, req, al.Items)
	}
	listed := !now.Before(h.env.StartedAt.Add(h.limits.StartupList))
	leader := h.env.Leader()
	if h.bug == writeAsStandby {
		leader = true
	}
	snap := binding.Snapshot{
		Now:         snapNow,
		Broker:      binding.Broker{Leader: leader, StartedAt: h.env.StartedAt, ConfigSource: binding.ConfigSourceCRDs, ProberListed: listed},
		Bindings:    bindings,
		Backends:    backends,
		Connections: cl.Items,
		Served:      h.served,
		Probes:      probes,
	}
	if leader && h.leadSince.IsZero() {
		h.leadSince = now
	}
	if h.bug == pendingOnFailover && leader && now.Before(h.leadSince.Add(h.limits.StartupList)) {
		// A new leader, until its prober lists, starts as if no status
		// had been written and no probe had finished.
		snap.Broker.ProberListed = false
		snap.Probes = nil
		snap.Bindings = slices.Clone(bindings)
		for i := range snap.Bindings {
			snap.Bindings[i].Status = akv1.BindingStatus{}
		}
		snap.Served = binding.ServedMemory{}
	}
	res, err := binding.Evaluate(snap)
	if err != nil {
		return reconcile.Result{}, err
	}
	h.served = res.Memory
	var next time.Time
	var failed error
	wrote := false
	live := map[types.UID]bool{}
	for i := range res.Bindings {
		o := &res.Bindings[i]
		obj := findBinding(bindings, o.UID)
		if obj == nil {
			continue
		}
		live[o.UID] = true
		if h.bug == onePerPass {
			if wrote {
				if next.IsZero() || now.Add(h.limits.WriterTick).Before(next) {
					next = now.Add(h.limits.WriterTick)
				}
				continue
			}
		} else if o.Namespace != req.Namespace || o.Name != req.Name {
			continue
		}
		v, mem, err := h.limits.DecideOutcome(o, obj.Status.Conditions, h.writers[o.UID], now)
		if err != nil {
			return reconcile.Result{}, err
		}
		if h.bug == fightAtOnce {
			// Forgets every foreign edit: no fight ever begins, so each
			// put-back waits the plain gap, however often the status is
			// taken from it.
			mem.Edits, mem.LastForeign, mem.FightSince, mem.FightEdits = nil, time.Time{}, time.Time{}, 0
		}
		write := v.Write
		if h.bug == writeEveryPass {
			write = leader
		}
		if write {
			owned := o.Owned
			if h.bug == applyAll {
				owned = o.Conditions
			}
			if err := h.apply(ctx, obj, owned); err != nil {
				h.writers[o.UID] = mem.Failed(now)
				if h.bug != noRequeueOnConflict {
					failed = errors.Join(failed, err)
				}
				continue
			}
			mem = mem.Wrote(o.Owned, now)
			wrote = true
		}
		h.writers[o.UID] = mem
		if v.Retry && (next.IsZero() || v.RetryAt.Before(next)) {
			next = v.RetryAt
		}
	}
	for uid := range h.writers {
		if !live[uid] && findBinding(bl.Items, uid) == nil {
			delete(h.writers, uid)
		}
	}
	if failed != nil {
		return reconcile.Result{}, failed
	}
	if next.IsZero() || h.bug == retryDropped {
		return reconcile.Result{}, nil
	}
	return reconcile.Result{RequeueAfter: max(next.Sub(now), time.Millisecond)}, nil
}

// indexBackends keeps an index of AgentBackends from requests: a
// request naming a backend reads it, or drops it when it is gone. The
// lostDelete host lists them too but never drops one the listing lacks,
// so a deletion whose event was lost stays unnoticed; the
// memoryNotRebuilt host lists them only at its first start, and after a
// restart trusts an index it no longer has.
func (h *host) indexBackends(ctx context.Context, req reconcile.Request, listed []akv1.AgentBackend) []akv1.AgentBackend {
	if h.bug == lostDelete || h.env.Incarnation == 1 {
		for _, b := range listed {
			h.backends[types.NamespacedName{Namespace: b.Namespace, Name: b.Name}] = b
		}
	}
	var b akv1.AgentBackend
	switch err := h.c.Get(ctx, req.NamespacedName, &b); {
	case err == nil:
		h.backends[req.NamespacedName] = b
	case apierrors.IsNotFound(err):
		delete(h.backends, req.NamespacedName)
	}
	out := make([]akv1.AgentBackend, 0, len(h.backends))
	for _, b := range h.backends {
		out = append(out, b)
	}
	slices.SortFunc(out, func(a, b akv1.AgentBackend) int {
		if a.Namespace != b.Namespace {
			if a.Namespace < b.Namespace {
				return -1
			}
			return 1
		}
		if a.Name < b.Name {
			return -1
		}
		if a.Name > b.Name {
			return 1
		}
		return 0
	})
	return out
}

// apply writes the owned conditions with server-side apply on the status
// subresource, guarded by the resourceVersion read.
func (h *host) apply(ctx context.Context, obj *akv1.Binding, owned []metav1.Condition) error {
	conds := make([]any, 0, len(owned))
	for _, x := range owned {
		conds = append(conds, map[string]any{
			"type": x.Type, "status": string(x.Status), "reason": x.Reason, "message": x.Message,
			"observedGeneration": x.ObservedGeneration,
			"lastTransitionTime": x.LastTransitionTime.UTC().Format(time.RFC3339),
		})
	}
	u := &unstructured.Unstructured{Object: map[string]any{"status": map[string]any{"conditions": conds}}}
	u.SetGroupVersionKind(akv1.GroupVersion.WithKind(akv1.KindBinding))
	u.SetNamespace(obj.Namespace)
	u.SetName(obj.Name)
	if h.bug != noGuard {
		u.SetResourceVersion(obj.ResourceVersion)
	}
	return h.c.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner("agent-kourier"), client.ForceOwnership)
}

func findBinding(bs []akv1.Binding, uid types.UID) *akv1.Binding {
	for i := range bs {
		if bs[i].UID == uid {
			return &bs[i]
		}
	}
	return nil
}
