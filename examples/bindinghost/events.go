package bindinghost

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/examples/internal/typedlist"
)

// eventKey names one object an informer reported changed.
type eventKey struct {
	kind string
	name types.NamespacedName
}

// SetupWithManager makes the host work per event under mgr: it watches
// the three kinds through the manager's cache and adds the host to the
// manager as a runnable (run on the elected leader only).
func (h *Host) SetupWithManager(mgr manager.Manager) error {
	if err := h.Watch(context.Background(), mgr.GetCache(), mgr.GetCache()); err != nil {
		return err
	}
	return mgr.Add(h)
}

// Watch registers the host's event handlers on the informers of the
// three kinds, and makes every later pass read through r (the cache the
// informers fill) only the objects they reported added, updated or
// deleted since the pass before. The handlers only note the object's
// kind and name: the pass reads the object as the cache holds it then,
// on the host's own goroutine. The next pass lists everything and
// evaluates it all.
func (h *Host) Watch(ctx context.Context, informers cache.Informers, r client.Reader) error {
	if informers == nil || r == nil {
		return fmt.Errorf("bindinghost: Watch needs informers and a reader")
	}
	for _, gvk := range []schema.GroupVersionKind{BindingGVK, AgentBackendGVK, ChatConnectionGVK} {
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(gvk)
		inf, err := informers.GetInformer(ctx, u, cache.BlockUntilSynced(false))
		if err != nil {
			return fmt.Errorf("bindinghost: informer of %s: %w", gvk.Kind, err)
		}
		kind := gvk.Kind
		if _, err := inf.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
			AddFunc:    func(obj any) { h.note(kind, obj) },
			UpdateFunc: func(_, obj any) { h.note(kind, obj) },
			DeleteFunc: func(obj any) { h.note(kind, obj) },
		}); err != nil {
			return fmt.Errorf("bindinghost: event handler of %s: %w", gvk.Kind, err)
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.reader, h.watching, h.st.inc = r, true, nil
	return nil
}

// note queues the object of an event. An event the host cannot name the
// object of makes the next pass list everything.
func (h *Host) note(kind string, obj any) {
	key, err := toolscache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	var ns, name string
	if err == nil {
		ns, name, err = toolscache.SplitMetaNamespaceKey(key)
	}
	h.evMu.Lock()
	defer h.evMu.Unlock()
	if err != nil {
		h.relist = true
		return
	}
	h.events[eventKey{kind: kind, name: types.NamespacedName{Namespace: ns, Name: name}}] = struct{}{}
}

// takeEvents empties the queue and returns what it held, sorted.
func (h *Host) takeEvents() []eventKey {
	h.evMu.Lock()
	defer h.evMu.Unlock()
	out := make([]eventKey, 0, len(h.events))
	for k := range h.events {
		out = append(out, k)
	}
	clear(h.events)
	slices.SortFunc(out, func(a, b eventKey) int {
		return cmp.Or(cmp.Compare(a.kind, b.kind), cmp.Compare(a.name.Namespace, b.name.Namespace), cmp.Compare(a.name.Name, b.name.Name))
	})
	return out
}

func (h *Host) takeRelist() bool {
	h.evMu.Lock()
	defer h.evMu.Unlock()
	r := h.relist
	h.relist = false
	return r
}

// change is one queued object as the cache holds it now: nil when it is
// gone.
type change struct {
	key eventKey
	obj any // *akv1.Binding, *akv1.AgentBackend, *akv1.ChatConnection or nil
}

// readEvents reads every queued object. It changes nothing: on an error
// the pass stops before telling the evaluator anything.
func (h *Host) readEvents(ctx context.Context) ([]change, error) {
	keys := h.takeEvents()
	out := make([]change, 0, len(keys))
	for _, k := range keys {
		var obj any
		var err error
		switch k.kind {
		case akv1.KindBinding:
			obj, err = typedlist.Get[akv1.Binding](ctx, h.reader, BindingGVK, k.name)
		case akv1.KindAgentBackend:
			obj, err = typedlist.Get[akv1.AgentBackend](ctx, h.reader, AgentBackendGVK, k.name)
		default:
			obj, err = typedlist.Get[akv1.ChatConnection](ctx, h.reader, ChatConnectionGVK, k.name)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, change{key: k, obj: obj})
	}
	return out, nil
}

// applyEvents tells the evaluator of each queued object as read.
func (h *Host) applyEvents(changed []change) {
	for _, c := range changed {
		switch o := c.obj.(type) {
		case *akv1.Binding:
			reconcile(&h.st.bindings, c.key.name, o, h.setBinding, h.deleteBinding)
		case *akv1.AgentBackend:
			reconcile(&h.st.backends, c.key.name, o, h.setBackend, h.deleteBackend)
		case *akv1.ChatConnection:
			reconcile(&h.st.connections, c.key.name, o, h.setConnection, h.deleteConnection)
		}
	}
}
