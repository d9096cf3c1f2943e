package hostcheck_test

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/config/crd"
	"github.com/condengine/condengine/hostcheck"
)

// serverLike is an Options.Store that behaves as a real server does on
// the points the harness must not assume: every object gets a UID and a
// resourceVersion of the store's own, and calls are counted.
type serverLike struct{ calls int }

func (s *serverLike) store(_ context.Context, objs []client.Object) (client.WithWatch, error) {
	s.calls++
	scheme := runtime.NewScheme()
	if err := akv1.AddToScheme(scheme); err != nil {
		return nil, err
	}
	tc, err := crd.TypeConverter()
	if err != nil {
		return nil, err
	}
	var created []client.Object
	for _, o := range objs {
		c := o.DeepCopyObject().(client.Object)
		c.SetUID(types.UID("server-" + string(o.GetUID())))
		c.SetResourceVersion("")
		created = append(created, c)
	}
	status := &unstructured.Unstructured{}
	status.SetGroupVersionKind(akv1.GroupVersion.WithKind("Binding"))
	return fake.NewClientBuilder().
		WithScheme(scheme).
		WithObjects(created...).
		WithStatusSubresource(status).
		WithReturnManagedFields().
		WithTypeConverters(tc, managedfields.NewDeducedTypeConverter()).
		Build(), nil
}

// The faults a run against a real server can show.
const serverFaults = hostcheck.LateEvents | hostcheck.Crashes | hostcheck.Failover

func TestStore_CorrectHostPassesOnAStoreOfItsOwn(t *testing.T) {
	s := &serverLike{}
	hostcheck.Check(t, newHost(correct), hostcheck.Options{System: hostcheck.Binding(), Schedules: 10, Faults: serverFaults, Store: s.store})
	if s.calls != 10 {
		t.Fatalf("Store called %d times for 10 schedules, want one call a schedule", s.calls)
	}
}

func TestStore_PlantedBugCaughtOnAStoreOfItsOwn(t *testing.T) {
	for _, b := range []bug{staleRead, writeAsStandby, memoryNotRebuilt, pendingOnFailover} {
		t.Run(bugNames[b], func(t *testing.T) {
			s := &serverLike{}
			cx, err := hostcheck.Find(context.Background(), newHost(b), hostcheck.Options{System: hostcheck.Binding(), Faults: serverFaults, Store: s.store})
			if err != nil {
				t.Fatal(err)
			}
			if cx == nil {
				t.Fatalf("%s: not caught with the store's own UIDs", bugNames[b])
			}
		})
	}
}
