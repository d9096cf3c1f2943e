package plugin

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

	"github.com/condengine/condengine/manifest"
	"github.com/condengine/condengine/system"
)

// reader lists the objects of the systems' kinds in one namespace (""
// for all) and looks up the objects they reference. It only ever lists
// and gets.
type reader struct {
	client dynamic.Interface
	mapper meta.RESTMapper
	// notes collects what the reader skipped (a group not installed).
	notes []string
}

// resources are the resources of a system's kinds.
func resources(s *system.System) []schema.GroupVersionResource {
	out := make([]schema.GroupVersionResource, 0, len(s.Kinds))
	for _, k := range s.Kinds {
		out = append(out, schema.GroupVersionResource{Group: k.Group, Version: k.Version, Resource: k.Plural})
	}
	return out
}

// read fills an audit input from the cluster: the objects of each
// system's kinds in one namespace, or in all when namespace is "", and
// for a system that reads other kinds (References), those its objects
// name that exist.
func (r *reader) read(ctx context.Context, systems []*system.System, namespace string) (auditInput, error) {
	in := auditInput{objects: make([][]json.RawMessage, len(systems))}
	for i, s := range systems {
		objs, err := r.list(ctx, resources(s), namespace)
		if err != nil {
			return in, err
		}
		if s.References != nil && len(objs) > 0 {
			refs, err := r.references(ctx, systems, s.References(objs), namespace != "")
			if err != nil {
				return in, err
			}
			objs = append(objs, refs...)
		}
		in.objects[i] = objs
	}
	return in, nil
}

func (r *reader) list(ctx context.Context, resources []schema.GroupVersionResource, namespace string) ([]json.RawMessage, error) {
	var out []json.RawMessage
	for _, gvr := range resources {
		list, err := r.client.Resource(gvr).Namespace(namespace).List(ctx, metav1.ListOptions{})
		if apierrors.IsNotFound(err) {
			r.note(fmt.Sprintf("%s is not served by this cluster; skipped", gvr.GroupResource()))
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", gvr.GroupResource(), err)
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

// references gets each object refs name, unless it is of a kind the
// systems list (then it was listed, or does not exist), and returns
// those that exist, by identity only. restricted says only one
// namespace is read, for want of the right to list across namespaces:
// an object the user may not get then reads as missing, as every other
// reference outside that namespace does.
func (r *reader) references(ctx context.Context, systems []*system.System, refs []system.Ref, restricted bool) ([]json.RawMessage, error) {
	var out []json.RawMessage
	for _, t := range refs {
		gv, err := schema.ParseGroupVersion(t.APIVersion)
		if err != nil {
			continue // a malformed reference names nothing
		}
		if slices.ContainsFunc(systems, func(s *system.System) bool {
			return slices.ContainsFunc(s.Kinds, func(k system.Kind) bool { return k.Group == gv.Group && k.Kind == t.Kind })
		}) {
			continue
		}
		exists, err := r.exists(ctx, gv, t, restricted)
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
// restricted (see references): then it reads as missing.
func (r *reader) exists(ctx context.Context, gv schema.GroupVersion, t system.Ref, restricted bool) (bool, error) {
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
