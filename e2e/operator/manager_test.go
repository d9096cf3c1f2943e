package operator_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/condengine/condengine/binding/policy"
	"github.com/condengine/condengine/e2e/internal/seed"
	"github.com/condengine/condengine/examples/bindinghost"
)

// TestBindingHost_UnderAManagerWorksPerEvent: the host set up with a
// controller-runtime manager learns of changes from the manager's
// informers. It writes the seed's statuses; a Binding edited afterwards
// gets the status of its new generation, and no other Binding is written.
// Only the first pass lists: the pass that writes the edit (and every
// other, one a second) reads objects one by one from the cache, so a host
// that listed and evaluated everything at each tick fails here.
func TestBindingHost_UnderAManagerWorksPerEvent(t *testing.T) {
	e := newEnv(t)
	e.seed()
	ctrllog.SetLogger(logr.Discard())
	mgr, err := ctrl.NewManager(e.C.RESTConfig(), ctrl.Options{
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
	})
	require.NoError(t, err)
	h, err := bindinghost.New(mgr.GetClient(), policy.DefaultLimits(), "")
	require.NoError(t, err)
	h.SetProberListed()
	e.probeAll(h)
	reads := &countingCache{Cache: mgr.GetCache()}
	require.NoError(t, h.SetupWithManager(countingManager{Manager: mgr, cache: reads}))
	ctx, cancel := context.WithCancel(e.Ctx)
	var done sync.WaitGroup
	done.Go(func() { _ = mgr.Start(ctx) })
	t.Cleanup(func() { cancel(); done.Wait() })

	require.Eventually(t, func() bool {
		return cmp.Diff(seed.Rows, e.Table("akbinding", "-A").Without("AGE")) == ""
	}, 30*time.Second, 250*time.Millisecond, "the seed's table never showed")
	before := e.resourceVersions()
	lists, gets := reads.lists.Load(), reads.gets.Load()
	require.Positive(t, lists, "the host's first pass did not list through the manager's cache")

	e.Kubectl(seed.BindingYAML("team-a", "team-a-chat", "echo", "", "C3"), "apply", "-f", "-")
	e.probeAll(h)
	require.Eventually(t, func() bool {
		b := e.bindings()["team-a/team-a-chat"]
		for _, c := range b.Status.Conditions {
			if c.ObservedGeneration != 2 {
				return false
			}
		}
		return len(b.Status.Conditions) > 0 && readyOf(b) == "True OK"
	}, 30*time.Second, 250*time.Millisecond, "the edited Binding never got the status of its generation 2")
	after := e.resourceVersions()
	for _, k := range []string{"team-a/late", "team-b/support"} {
		require.Equal(t, before[k], after[k], "%s was written though nothing of it changed", k)
	}
	require.Equal(t, lists, reads.lists.Load(), "a pass after the first listed the three kinds again")
	require.Greater(t, reads.gets.Load(), gets, "the edited Binding was never read from the cache")
}

// countingManager is a manager whose GetCache is the manager's cache
// behind a countingCache, so that SetupWithManager hands the host a
// reader the test can watch.
type countingManager struct {
	manager.Manager
	cache *countingCache
}

func (m countingManager) GetCache() cache.Cache { return m.cache }

// countingCache counts the List and Get calls made through it.
type countingCache struct {
	cache.Cache
	lists, gets atomic.Int64
}

func (c *countingCache) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	c.lists.Add(1)
	return c.Cache.List(ctx, list, opts...)
}

func (c *countingCache) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	c.gets.Add(1)
	return c.Cache.Get(ctx, key, obj, opts...)
}
