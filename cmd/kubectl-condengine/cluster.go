package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/manifest"
)

// The resources audit reads. It only ever lists and gets.
var (
	bindingResources = []schema.GroupVersionResource{
		akv1.GroupVersion.WithResource("bindings"),
		akv1.GroupVersion.WithResource("agentbackends"),
		akv1.GroupVersion.WithResource("chatconnections"),
	}
	finopsResources = []schema.GroupVersionResource{
		finopsv1.GroupVersion.WithResource("pricebooks"),
		finopsv1.GroupVersion.WithResource("offerings"),
		finopsv1.GroupVersion.WithResource("subscriptions"),
		finopsv1.GroupVersion.WithResource("costjobs"),
		finopsv1.GroupVersion.WithResource("finopsproviders"),
	}
)

// reader lists the objects of both groups in one namespace ("" for all)
// and looks up the targets Subscriptions name.
type reader struct {
	client dynamic.Interface
	mapper meta.RESTMapper
	// notes collects what the reader skipped (a group not installed).
	notes []string
}

// read fills an audit input from the cluster: the objects of one
// namespace, or of all when namespace is "".
func (r *reader) read(ctx context.Context, namespace string) (auditInput, error) {
	var in auditInput
	var err error
	if in.bindings, err = r.list(ctx, bindingResources, namespace); err != nil {
		return in, err
	}
	if in.finops, err = r.list(ctx, finopsResources, namespace); err != nil {
		return in, err
	}
	targets, err := r.targets(ctx, in.finops, namespace != "")
	if err != nil {
		return in, err
	}
	if len(in.finops) > 0 {
		in.finops = append(in.finops, targets...)
	}
	return in, nil
}

func (r *reader) list(ctx context.Context, resources []schema.GroupVersionResource, namespace string) ([]json.RawMessage, error) {
	var out []json.RawMessage
	for _, gvr := range resources {
		list, err := r.client.Resource(gvr).Namespace(namespace).List(ctx, metav1.ListOptions{})
		if apierrors.IsNotFound(err) {
			r.note(fmt.Sprintf("%s.%s is not served by this cluster; skipped", gvr.Resource, gvr.Group))
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("listing %s.%s: %w", gvr.Resource, gvr.Group, err)
		}
		for i := range list.Items {
			raw, err := objectJSON(&list.Items[i], gvr)
			if err != nil {
				return nil, err
			}
			out = append(out, raw)
		}
	}
	return out, nil
}

// note adds msg to the notes unless it is there already: a read retried
// in one namespace meets the same resources again.
func (r *reader) note(msg string) {
	if !slices.Contains(r.notes, msg) {
		r.notes = append(r.notes, msg)
	}
}

// objectJSON is the object as the engine decodes it: managedFields are
// bookkeeping of the API server and are dropped.
func objectJSON(u *unstructured.Unstructured, gvr schema.GroupVersionResource) ([]byte, error) {
	u = u.DeepCopy()
	u.SetManagedFields(nil)
	if u.GetAPIVersion() == "" {
		u.SetAPIVersion(gvr.GroupVersion().String())
	}
	return u.MarshalJSON()
}

// targets gets the object each Subscription's targetRef names and
// returns those that exist, by identity only. restricted says only one
// namespace is read, for want of the right to list across namespaces: a
// target the user may not get then reads as missing, as every other
// reference outside that namespace does.
func (r *reader) targets(ctx context.Context, finopsObjects []json.RawMessage, restricted bool) ([]json.RawMessage, error) {
	var out []json.RawMessage
	seen := map[finopsv1.TargetRef]bool{}
	for _, raw := range finopsObjects {
		var s finopsv1.Subscription
		if err := json.Unmarshal(raw, &s); err != nil || s.Kind != finopsv1.KindSubscription || s.Spec.Lifecycle == nil || s.Spec.Lifecycle.TargetRef == nil {
			continue
		}
		t := *s.Spec.Lifecycle.TargetRef
		if seen[t] || t.APIVersion == "" || t.Kind == "" || t.Name == "" {
			continue
		}
		seen[t] = true
		if t.APIVersion == finopsv1.APIVersion && t.Kind == finopsv1.KindSubscription {
			continue // a Subscription: already listed
		}
		exists, err := r.exists(ctx, t, restricted)
		if err != nil {
			return nil, err
		}
		if exists {
			raw, err := json.Marshal(map[string]any{"apiVersion": t.APIVersion, "kind": t.Kind,
				"metadata": map[string]string{"namespace": t.Namespace, "name": t.Name}})
			if err != nil {
				return nil, err
			}
			out = append(out, raw)
		}
	}
	return out, nil
}

// exists gets t. A target the user may not get is an error, unless
// restricted (see targets): then it reads as missing.
func (r *reader) exists(ctx context.Context, t finopsv1.TargetRef, restricted bool) (bool, error) {
	gv, err := schema.ParseGroupVersion(t.APIVersion)
	if err != nil {
		return false, nil // a malformed reference names nothing
	}
	m, err := r.mapper.RESTMapping(gv.WithKind(t.Kind).GroupKind(), gv.Version)
	if meta.IsNoMatchError(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("finding the resource of %s %s: %w", t.APIVersion, t.Kind, err)
	}
	ri := r.client.Resource(m.Resource)
	var getErr error
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		_, getErr = ri.Namespace(t.Namespace).Get(ctx, t.Name, metav1.GetOptions{})
	} else {
		_, getErr = ri.Get(ctx, t.Name, metav1.GetOptions{})
	}
	switch {
	case getErr == nil:
		return true, nil
	case apierrors.IsNotFound(getErr), restricted && apierrors.IsForbidden(getErr):
		return false, nil
	}
	return false, fmt.Errorf("cannot tell whether %s %s exists: %w", t.Kind, manifest.JoinName(t.Namespace, t.Name), getErr)
}
