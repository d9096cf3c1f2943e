package operator_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/policy"
	"github.com/condengine/condengine/examples/quickstart"
	"github.com/condengine/condengine/hostcheck"
)

// The fault kinds of a run on the real server: the host's view lags and
// its writes meet the server's own conflicts, it restarts, and the lease
// moves while the deposed leader keeps running. Write errors and clock
// jumps stay with the in-memory store, which can inject them at will.
const serverFaults = hostcheck.LateEvents | hostcheck.Crashes | hostcheck.Failover

// serverStore is hostcheck's Options.Store on the real kube-apiserver:
// each schedule starts from an empty set of our kinds, and the world is
// created through the API as a user would create it.
type serverStore struct {
	e      *env
	scheme *runtime.Scheme
	// writes and conflicts count the status writes that reached the
	// server and those it refused with a conflict, so a run shows it did
	// meet the server.
	writes, conflicts int
}

func newServerStore(e *env) *serverStore {
	scheme := runtime.NewScheme()
	require.NoError(e.T, akv1.AddToScheme(scheme))
	require.NoError(e.T, corev1.AddToScheme(scheme))
	return &serverStore{e: e, scheme: scheme}
}

func (s *serverStore) store(ctx context.Context, objs []client.Object) (client.WithWatch, error) {
	c, err := client.NewWithWatch(s.e.C.RESTConfig(), client.Options{Scheme: s.scheme})
	if err != nil {
		return nil, err
	}
	if err := releaseFinalizers(ctx, c); err != nil {
		return nil, fmt.Errorf("clear the previous schedule's objects: %w", err)
	}
	if _, err := s.e.C.Kubectl(ctx, "", "delete", "bindings.agentkourier.dev,agentbackends.agentkourier.dev,chatconnections.agentkourier.dev",
		"--all", "--all-namespaces", "--wait=true"); err != nil {
		return nil, fmt.Errorf("clear the previous schedule's objects: %w", err)
	}
	made := map[string]bool{}
	for _, o := range objs {
		if ns := o.GetNamespace(); ns != "" && !made[ns] {
			made[ns] = true
			if err := c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil && !apierrors.IsAlreadyExists(err) {
				return nil, err
			}
		}
		obj := o.DeepCopyObject().(client.Object)
		obj.SetResourceVersion("")
		obj.SetUID("")
		obj.SetManagedFields(nil)
		obj.SetCreationTimestamp(metav1.Time{})
		obj.SetDeletionTimestamp(nil)
		if err := c.Create(ctx, obj); err != nil {
			// The generator draws names and fields the server refuses
			// now and then; the harness reads the world back from the
			// server, so a refused object is simply not in it.
			if apierrors.IsInvalid(err) || apierrors.IsAlreadyExists(err) {
				continue
			}
			return nil, err
		}
		// Status is a subresource: what other writers left in it is
		// written after the object exists.
		if b, ok := o.(*akv1.Binding); ok && len(b.Status.Conditions) > 0 {
			created := obj.(*akv1.Binding)
			created.Status = *b.Status.DeepCopy()
			if err := c.Status().Update(ctx, created, client.FieldOwner("other-controller")); err != nil && !apierrors.IsInvalid(err) {
				return nil, err
			}
		}
	}
	return interceptor.NewClient(c, interceptor.Funcs{
		SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
			return s.count(c.SubResource(sub).Patch(ctx, obj, patch, opts...))
		},
		SubResourceApply: func(ctx context.Context, c client.Client, sub string, obj runtime.ApplyConfiguration, opts ...client.SubResourceApplyOption) error {
			return s.count(c.SubResource(sub).Apply(ctx, obj, opts...))
		},
		SubResourceUpdate: func(ctx context.Context, c client.Client, sub string, obj client.Object, opts ...client.SubResourceUpdateOption) error {
			return s.count(c.SubResource(sub).Update(ctx, obj, opts...))
		},
	}), nil
}

func (s *serverStore) count(err error) error {
	s.writes++
	if apierrors.IsConflict(err) {
		s.conflicts++
	}
	return err
}

// quickstartHost runs the README's quick start under the harness; leader
// overrides the lease it reads (a planted bug), nil to read it.
func quickstartHost(leader func() bool) hostcheck.NewHost {
	return func(c client.Client, env hostcheck.Env) (reconcile.Reconciler, error) {
		r := &quickstart.BindingReconciler{
			Client: c, Limits: policy.DefaultLimits(), Now: env.Now, Started: env.StartedAt,
			Leader: env.Leader, Probes: func() []binding.ProbeResult { return hostcheck.BindingProbes(env) },
		}
		if leader != nil {
			r.Leader = leader
		}
		return r, nil
	}
}

// TestHostCheckOnServer runs the quick start under harness schedules on
// the real kube-apiserver, judged at every write and at the end by the
// same oracle as the in-memory runs.
func TestHostCheckOnServer(t *testing.T) {
	e := newEnv(t)
	s := newServerStore(e)
	t.Cleanup(func() {
		_, _ = e.C.Kubectl(context.Background(), "", "delete", "agentbackends.agentkourier.dev,chatconnections.agentkourier.dev", "--all", "--all-namespaces", "--wait=true")
	})
	hostcheck.Check(t, quickstartHost(nil), hostcheck.Options{
		System: hostcheck.Binding(), Schedules: 3, Steps: 40, Faults: serverFaults, Store: s.store,
	})
	t.Logf("%d status writes reached the server, %d refused with a conflict", s.writes, s.conflicts)
	require.NotZero(t, s.writes, "no status write reached the server: the run checked nothing")
}

// TestHostCheckOnServer_CatchesAStandbyWriter shows the same run fails a
// host that writes while another replica holds the lease.
func TestHostCheckOnServer_CatchesAStandbyWriter(t *testing.T) {
	e := newEnv(t)
	s := newServerStore(e)
	t.Cleanup(func() {
		_, _ = e.C.Kubectl(context.Background(), "", "delete", "agentbackends.agentkourier.dev,chatconnections.agentkourier.dev", "--all", "--all-namespaces", "--wait=true")
	})
	cx, err := hostcheck.Find(e.Ctx, quickstartHost(func() bool { return true }), hostcheck.Options{
		System: hostcheck.Binding(), Schedules: 10, Steps: 40, Faults: hostcheck.Failover, Store: s.store,
	})
	require.NoError(t, err)
	require.NotNil(t, cx, "a host that ignores the lease was not caught on the real server")
	require.Equal(t, hostcheck.RuleLeaderOnly.ID, cx.Violation.Rule.ID, "%s", cx)
	t.Logf("caught: %s, shrunk to %d events", cx.Violation.Rule.ID, cx.Steps)
}

// releaseFinalizers drops every finalizer of the objects of our kinds. A
// schedule may leave an object that another controller holds back from
// deletion (the generator draws Bindings with a finalizer of someone
// else's), and nothing here would ever remove it, so the next
// schedule's clearing would wait for it forever.
func releaseFinalizers(ctx context.Context, c client.Client) error {
	for _, l := range []client.ObjectList{&akv1.BindingList{}, &akv1.AgentBackendList{}, &akv1.ChatConnectionList{}} {
		if err := c.List(ctx, l); err != nil {
			return err
		}
		if err := meta.EachListItem(l, func(o runtime.Object) error {
			obj := o.(client.Object)
			if len(obj.GetFinalizers()) == 0 {
				return nil
			}
			return client.IgnoreNotFound(c.Patch(ctx, obj, client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`))))
		}); err != nil {
			return err
		}
	}
	return nil
}
