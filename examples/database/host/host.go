// Package host is a controller-runtime host of the Database system: a
// reconciler that reads one Database and its Secret, has dbsystem decide
// its conditions and finalizer with what the host observed, and carries
// out the write plan (writeplan) with server-side apply under its own
// field manager, so another controller's conditions stay as they are.
package host

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/condengine/condengine/examples/ctrlplan"
	"github.com/condengine/condengine/examples/database/api"
	"github.com/condengine/condengine/examples/database/dbsystem"
	"github.com/condengine/condengine/writeplan"
)

// Writes is what every write plan of the host declares: its field
// manager, and the kind with the finalizer it manages.
var Writes = writeplan.Options{FieldManager: dbsystem.FieldManager,
	Kind: writeplan.Kind{APIVersion: api.APIVersion, Kind: api.Kind, Finalizer: api.Finalizer}}

// Reconciler reconciles one Database per request.
type Reconciler struct {
	Client client.Client
	// Observed returns what the host's connection checks and drops have
	// observed so far; required.
	Observed func() (dbsystem.Observed, error)
	// Now reads the clock; time.Now when nil.
	Now func() time.Time
	// Leader reports whether this replica holds the lease; nil when the
	// manager runs the reconciler on the leader only, as SetupWithManager
	// does.
	Leader func() bool
}

// Scheme returns a scheme of client-go's kinds and the Database's.
func Scheme() *runtime.Scheme {
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		panic(err) // registration of generated types fails only on a programming error
	}
	if err := api.AddToScheme(s); err != nil {
		panic(err)
	}
	return s
}

// SetupWithManager has mgr run r on the leader for every change of a
// Database, and of a Secret for every Database of its namespace (one
// may name it).
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&api.Database{}).
		Watches(&corev1.Secret{}, handler.EnqueueRequestsFromMapFunc(r.databasesOf)).Complete(r)
}

// databasesOf lists the Databases of obj's namespace as requests.
func (r *Reconciler) databasesOf(ctx context.Context, obj client.Object) []reconcile.Request {
	var l api.DatabaseList
	if err := r.Client.List(ctx, &l, client.InNamespace(obj.GetNamespace())); err != nil {
		return nil
	}
	out := make([]reconcile.Request, 0, len(l.Items))
	for _, db := range l.Items {
		out = append(out, reconcile.Request{NamespacedName: types.NamespacedName{Namespace: db.Namespace, Name: db.Name}})
	}
	return out
}

// Reconcile evaluates the Database of req and writes what is due: the
// status first, then the finalizer, each guarded by the resourceVersion
// read, so a change in between fails the write and a later pass plans
// again.
func (r *Reconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	if r.Leader != nil && !r.Leader() {
		return reconcile.Result{}, nil
	}
	db := &api.Database{}
	if err := r.Client.Get(ctx, req.NamespacedName, db); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	found, err := r.secretFound(ctx, db)
	if err != nil {
		return reconcile.Result{}, err
	}
	obs, err := r.Observed()
	if err != nil {
		return reconcile.Result{}, err
	}
	now := time.Now
	if r.Now != nil {
		now = r.Now
	}
	o := dbsystem.Evaluate(dbsystem.Input{Database: db, SecretFound: found, Observed: obs}, now(), nil)
	plan, err := writeplan.For(db, &o, db.Status, Writes)
	if err != nil {
		return reconcile.Result{}, err
	}
	return reconcile.Result{}, ctrlplan.Carry(ctx, r.Client, db, plan)
}

// secretFound says whether the Secret db names exists.
func (r *Reconciler) secretFound(ctx context.Context, db *api.Database) (bool, error) {
	if db.Spec.SecretRef == "" {
		return false, nil
	}
	err := r.Client.Get(ctx, types.NamespacedName{Namespace: db.Namespace, Name: db.Spec.SecretRef}, &corev1.Secret{})
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	return err == nil, err
}
