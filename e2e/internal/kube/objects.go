package kube

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// Binding builds a Binding on connection's channel, answered by backend;
// both references are in the Binding's namespace.
func Binding(namespace, name, backend, connection, channel string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "agentkourier.dev/v1alpha1",
		"kind":       "Binding",
		"metadata":   map[string]any{"namespace": namespace, "name": name},
		"spec": map[string]any{
			"agent": map[string]any{"backendRef": map[string]any{"name": backend}},
			"chat":  map[string]any{"connectionRef": map[string]any{"name": connection}, "channel": channel},
		},
	}}
}

// Cond is a condition as the tests write it; LastTransitionTime is filled
// by ConditionsStatus when zero.
type Cond = metav1.Condition

// ConditionsStatus is a status holding exactly conds, in order, for an apply.
func ConditionsStatus(conds ...Cond) map[string]any {
	list := make([]any, 0, len(conds))
	now := metav1.NewTime(time.Now().Truncate(time.Second))
	for _, c := range conds {
		ltt := c.LastTransitionTime
		if ltt.IsZero() {
			ltt = now
		}
		list = append(list, map[string]any{
			"type":               c.Type,
			"status":             string(c.Status),
			"reason":             c.Reason,
			"message":            c.Message,
			"observedGeneration": c.ObservedGeneration,
			"lastTransitionTime": ltt.UTC().Format(time.RFC3339),
		})
	}
	return map[string]any{"conditions": list}
}

// ApplyStatus writes status on the status subresource with server-side
// apply under manager, as the host operators do.
//
// A non-empty resourceVersion is sent with the object and makes the write
// conditional on it: that, and not a UID, is what stops a status computed
// for a deleted object from landing on one created again under its name,
// because the status subresource takes metadata.uid from the stored object
// and ignores the one sent.
func ApplyStatus(ctx context.Context, dyn dynamic.Interface, gvr schema.GroupVersionResource, kind, namespace, name, resourceVersion string, status map[string]any, manager string, force bool) (*unstructured.Unstructured, error) {
	meta := map[string]any{"name": name}
	if namespace != "" {
		meta["namespace"] = namespace
	}
	if resourceVersion != "" {
		meta["resourceVersion"] = resourceVersion
	}
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": gvr.GroupVersion().String(),
		"kind":       kind,
		"metadata":   meta,
		"status":     status,
	}}
	var ri dynamic.ResourceInterface = dyn.Resource(gvr)
	if namespace != "" {
		ri = dyn.Resource(gvr).Namespace(namespace)
	}
	return ri.ApplyStatus(ctx, name, obj, metav1.ApplyOptions{FieldManager: manager, Force: force})
}
