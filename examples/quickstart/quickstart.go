// Package quickstart is the README's quick start, compiled and tested: a
// controller-runtime reconciler that evaluates the Bindings with the
// engine and applies, to each Binding that is due, only the conditions
// the engine owns.
package quickstart

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/policy"
)

// BindingReconciler writes the status of the default broker's Bindings.
// It keeps, between reconciles, the engine's memory of served
// generations and the writer's memory of each UID.
type BindingReconciler struct {
	Client  client.Client
	Limits  policy.Limits // policy.DefaultLimits()
	Now     func() time.Time
	Started time.Time

	served  binding.ServedMemory
	writers map[types.UID]policy.Memory
}

// Reconcile evaluates every Binding and writes the one requested when its
// outcome says so.
func (r *BindingReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	now := r.Now() // read the clock once; the engine reads none
	snap := binding.Snapshot{
		Now:    now,
		Broker: binding.Broker{Leader: true, StartedAt: r.Started, ConfigSource: binding.ConfigSourceCRDs, ProberListed: true},
		Served: r.served,
	}
	// The API types are runtime.Objects: register them once with
	// akv1.AddToScheme on the manager's scheme and list them typed.
	var bl akv1.BindingList
	var al akv1.AgentBackendList
	var cl akv1.ChatConnectionList
	for _, l := range []client.ObjectList{&bl, &al, &cl} {
		if err := r.Client.List(ctx, l); err != nil {
			return ctrl.Result{}, err
		}
	}
	snap.Bindings, snap.Backends, snap.Connections = bl.Items, al.Items, cl.Items
	res, err := binding.Evaluate(snap)
	if err != nil {
		return ctrl.Result{}, err
	}
	r.served = res.Memory
	if r.writers == nil {
		r.writers = map[types.UID]policy.Memory{}
	}
	for i := range res.Bindings {
		o := &res.Bindings[i]
		if o.Namespace != req.Namespace || o.Name != req.Name {
			continue
		}
		obj := find(snap.Bindings, o.UID)
		// One answer: the engine's verdict and the writer's timing.
		v, mem, err := r.Limits.DecideOutcome(o, obj.Status.Conditions, r.writers[o.UID], now)
		if err != nil {
			return ctrl.Result{}, err
		}
		if v.Write {
			if err := applyOwned(ctx, r.Client, obj, o.Owned); err != nil {
				r.writers[o.UID] = mem.Failed(now)
				return ctrl.Result{}, err
			}
			mem = mem.Wrote(o.Owned, now)
		}
		r.writers[o.UID] = mem
		if v.Retry {
			return ctrl.Result{RequeueAfter: v.RetryAt.Sub(now)}, nil
		}
	}
	return ctrl.Result{}, nil
}

// applyOwned applies the owned conditions, and nothing else, to the
// Binding's status subresource with server-side apply under the field
// manager "agent-kourier". The resourceVersion makes the API server refuse
// the write when the Binding changed since it was read (deleted and made
// again included).
func applyOwned(ctx context.Context, c client.Client, obj *akv1.Binding, owned []metav1.Condition) error {
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
	u.SetResourceVersion(obj.ResourceVersion)
	return c.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u),
		client.FieldOwner("agent-kourier"), client.ForceOwnership)
}

func find(bs []akv1.Binding, uid types.UID) *akv1.Binding {
	for i := range bs {
		if bs[i].UID == uid {
			return &bs[i]
		}
	}
	return nil
}
