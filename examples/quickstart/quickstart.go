// Package quickstart is the README's quick start, compiled and tested: a
// controller-runtime reconciler that evaluates the Bindings with the
// engine and writes each due Binding's status with a write plan.
package quickstart

import (
	"context"
	"errors"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/record"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/policy"
	"github.com/condengine/condengine/examples/ctrlplan"
	"github.com/condengine/condengine/writeplan"
)

// BindingReconciler writes the status of the default broker's Bindings.
//
// One reconcile is one pass: it lists every Binding, evaluates them all
// once and writes every Binding that is due, whichever one the request
// named, so what is written does not depend on the order of requests.
// It keeps the engine's and the writer's memory between passes, so run
// it with one worker (MaxConcurrentReconciles: 1, controller-runtime's
// default). A pass is O(n), so a burst of n events costs O(n²); for large
// fleets evaluate per event with binding.Incremental instead (see
// examples/bindinghost).
type BindingReconciler struct {
	Client   client.Client
	Limits   policy.Limits // policy.DefaultLimits(); the zero value is refused
	Now      func() time.Time
	Started  time.Time
	Leader   func() bool                  // true while this replica holds the lease (your leader election)
	Probes   func() []binding.ProbeResult // your prober's finished results, one per Binding
	Recorder record.EventRecorder         // optional: one Event per condition transition

	served  binding.ServedMemory
	writers map[types.UID]policy.Memory
}

// Reconcile evaluates every Binding and writes each one that is due.
func (r *BindingReconciler) Reconcile(ctx context.Context, _ ctrl.Request) (ctrl.Result, error) {
	if r.Leader == nil || r.Probes == nil {
		return ctrl.Result{}, errors.New("quickstart: set BindingReconciler.Leader and .Probes")
	}
	now := r.Now() // read the clock once; the engine reads none
	snap := binding.Snapshot{
		Now: now,
		// A deposed leader still evaluates, but the engine answers
		// NotLeader and nothing is written.
		Broker: binding.Broker{Leader: r.Leader(), StartedAt: r.Started, ConfigSource: binding.ConfigSourceCRDs, ProberListed: true},
		Served: r.served,
		Probes: r.Probes(),
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
	writers := make(map[types.UID]policy.Memory, len(res.Bindings)) // forgets deleted Bindings
	var wait time.Duration
	var failed []error
	for i := range res.Bindings {
		o := &res.Bindings[i]
		obj := find(snap.Bindings, o.UID)
		// One answer: the engine's verdict and the writer's timing.
		v, mem, err := r.Limits.DecideOutcome(o, obj.Status.Conditions, r.writers[o.UID], now)
		if err != nil {
			return ctrl.Result{}, err
		}
		if v.Write {
			if err := r.write(ctx, obj, o); err != nil {
				mem = mem.Failed(now)
				failed = append(failed, err)
			} else {
				mem = mem.Wrote(o.Owned, now)
			}
		}
		writers[o.UID] = mem
		// Never 0 when a retry is due: 0 means "no requeue" here.
		if d := v.RequeueAfter(now); d > 0 && (wait == 0 || d < wait) {
			wait = d
		}
	}
	r.writers = writers
	// A failed write (a conflict: the Binding moved) is retried by
	// controller-runtime's backoff, with a fresh read.
	return ctrl.Result{RequeueAfter: wait}, errors.Join(failed...)
}

// bindingWrites is what every write plan of the reconciler declares: its
// field manager and the kind it writes (a Binding has no finalizer).
var bindingWrites = writeplan.Options{
	FieldManager: "agent-kourier",
	Kind:         writeplan.Kind{APIVersion: akv1.APIVersion, Kind: akv1.KindBinding},
}

// write carries out the outcome's write plan: the removal of a condition
// of ours someone else co-owns (guarded by the resourceVersion read),
// the server-side apply of exactly o.Owned under "agent-kourier", and
// then any finalizer change, in that order. It records an Event per
// transition.
func (r *BindingReconciler) write(ctx context.Context, obj *akv1.Binding, o *binding.Outcome) error {
	before := obj.Status.Conditions
	plan, err := writeplan.For(obj, &o.Outcome, o.Status, bindingWrites)
	if err != nil {
		return err
	}
	if err := ctrlplan.Carry(ctx, r.Client, obj, plan); err != nil {
		return err
	}
	// One Event per condition whose status moved; Warning when it became False.
	ctrlplan.RecordTransitions(r.Recorder, obj, writeplan.Transitions(before, o.Conditions))
	return nil
}

func find(bs []akv1.Binding, uid types.UID) *akv1.Binding {
	for i := range bs {
		if bs[i].UID == uid {
			return &bs[i]
		}
	}
	return nil
}
