package libhost

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/e2e/internal/kube"
)

// Host evaluates and writes. Its fields are read by Step; Memory and the
// counters are updated by it.
type Host struct {
	Dyn    dynamic.Interface
	Broker binding.Broker
	// Probes returns the finished probes of a Binding, or nil for none.
	Probes func(b *akv1.Binding) *binding.ProbeResult
	// Memory is the engine's memory of good generations, carried between Steps.
	Memory binding.ServedMemory
	// Namespace, when not empty, is the only namespace listed and written,
	// so a test sharing its control plane with others leaves theirs alone.
	Namespace string
	// Edit, when set, changes the conditions of each write before it is
	// sent (a copy: the returned Result keeps the engine's), which makes
	// the host one with a bug on purpose.
	Edit func(namespace, name string, conds []metav1.Condition)

	// Writes counts status writes the API server accepted; Conflicts counts
	// writes it refused because the object had changed since it was listed.
	Writes, Conflicts int
}

// Step runs one evaluation at now and applies its writes. It returns the
// number of writes made and the engine's result.
func (h *Host) Step(ctx context.Context, now time.Time) (int, binding.Result, error) {
	objs, rvs, err := h.list(ctx)
	if err != nil {
		return 0, binding.Result{}, err
	}
	snap := binding.Snapshot{
		Now:         now,
		Broker:      h.Broker,
		Bindings:    objs.Bindings,
		Backends:    objs.Backends,
		Connections: objs.Connections,
		Served:      h.Memory,
	}
	if h.Probes != nil {
		for i := range objs.Bindings {
			if p := h.Probes(&objs.Bindings[i]); p != nil {
				snap.Probes = append(snap.Probes, *p)
			}
		}
	}
	res, err := binding.Evaluate(snap)
	if err != nil {
		return 0, binding.Result{}, err
	}
	h.Memory = res.Memory
	wrote := 0
	for _, r := range res.Bindings {
		if !r.Write {
			continue
		}
		// Only our own conditions: another controller's stay its own.
		owned := r.Owned
		if h.Edit != nil {
			owned = slices.Clone(owned)
			h.Edit(r.Namespace, r.Name, owned)
		}
		status, err := statusOf(owned)
		if err != nil {
			return wrote, res, err
		}
		_, err = kube.ApplyStatus(ctx, h.Dyn, kube.Bindings, akv1.KindBinding, r.Namespace, r.Name, rvs[r.UID], status, kube.FieldManager, true)
		switch {
		case apierrors.IsConflict(err) || apierrors.IsNotFound(err):
			h.Conflicts++
		case err != nil:
			return wrote, res, fmt.Errorf("write %s/%s: %w", r.Namespace, r.Name, err)
		default:
			wrote++
			h.Writes++
		}
	}
	return wrote, res, nil
}

// list reads the three kinds as the library's types, and each Binding's
// resourceVersion by UID.
func (h *Host) list(ctx context.Context) (binding.Objects, map[types.UID]string, error) {
	var raws []json.RawMessage
	rvs := map[types.UID]string{}
	for _, gvr := range []schema.GroupVersionResource{kube.Bindings, kube.AgentBackends, kube.ChatConnections} {
		list, err := h.Dyn.Resource(gvr).Namespace(h.Namespace).List(ctx, metav1.ListOptions{})
		if err != nil {
			return binding.Objects{}, nil, err
		}
		for i := range list.Items {
			item := &list.Items[i]
			if gvr == kube.Bindings {
				rvs[item.GetUID()] = item.GetResourceVersion()
			}
			raw, err := item.MarshalJSON()
			if err != nil {
				return binding.Objects{}, nil, err
			}
			raws = append(raws, raw)
		}
	}
	objs, err := binding.DecodeObjects(raws)
	return objs, rvs, err
}

// statusOf turns conditions into the status object of an apply.
func statusOf(conds []metav1.Condition) (map[string]any, error) {
	raw, err := json.Marshal(struct {
		Conditions []metav1.Condition `json:"conditions"`
	}{conds})
	if err != nil {
		return nil, err
	}
	var out map[string]any
	return out, json.Unmarshal(raw, &out)
}
