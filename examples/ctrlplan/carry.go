package ctrlplan

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/condengine/condengine/writeplan"
)

// Carry sends the plan's requests in order through c, each as a PATCH of
// obj (or of its status subresource), and stops at the first that fails:
// the host then reads the object again and makes a new plan. obj is
// updated from each response, so after Carry it holds what the server
// stored (unless the last request deleted it), and a request marked
// AfterPrevious is guarded by the resourceVersion obj holds then.
func Carry(ctx context.Context, c client.Client, obj client.Object, p writeplan.Plan) error {
	if obj.GetNamespace() != p.Namespace || obj.GetName() != p.Name {
		return fmt.Errorf("ctrlplan: the plan is for %s/%s, the object is %s/%s", p.Namespace, p.Name, obj.GetNamespace(), obj.GetName())
	}
	for _, r := range p.Requests {
		var err error
		if r.AfterPrevious {
			if r.Body, err = r.GuardedBody(obj.GetResourceVersion()); err != nil {
				return fmt.Errorf("ctrlplan: %w", err)
			}
		}
		if r.PatchType == types.ApplyPatchType {
			err = apply(ctx, c, obj, r)
		} else {
			err = patch(ctx, c, obj, r)
		}
		if err != nil {
			return fmt.Errorf("ctrlplan: %s of %s %s/%s: %w", r.Step, p.Kind, p.Namespace, p.Name, err)
		}
	}
	return nil
}

// ours names the module's kinds whatever scheme the host built its
// client with: a typed object of ours is sent as unstructured, so a
// client that does not know our API groups still carries the plan.
var ours = Scheme()

// patch sends a JSON or merge patch of obj (or of its status) and copies
// the object the server answered into obj.
func patch(ctx context.Context, c client.Client, obj client.Object, r writeplan.Request) error {
	target, u := obj, (*unstructured.Unstructured)(nil)
	if _, isU := obj.(*unstructured.Unstructured); !isU {
		if gvk, err := apiutil.GVKForObject(obj, ours); err == nil {
			u = &unstructured.Unstructured{}
			u.SetGroupVersionKind(gvk)
			u.SetNamespace(obj.GetNamespace())
			u.SetName(obj.GetName())
			target = u
		}
	}
	p := client.RawPatch(r.PatchType, r.Body)
	var err error
	if r.Subresource == writeplan.SubresourceStatus {
		err = c.Status().Patch(ctx, target, p, client.FieldOwner(r.FieldManager))
	} else {
		err = c.Patch(ctx, target, p, client.FieldOwner(r.FieldManager))
	}
	if err != nil || u == nil {
		return err
	}
	return runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, obj)
}

// apply sends a server-side apply request through the client's Apply
// (or Status().Apply) and copies the object the server answered into obj.
func apply(ctx context.Context, c client.Client, obj client.Object, r writeplan.Request) error {
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(r.Body); err != nil {
		return err
	}
	ac := client.ApplyConfigurationFromUnstructured(u)
	var err error
	if r.Subresource == writeplan.SubresourceStatus {
		opts := []client.SubResourceApplyOption{client.FieldOwner(r.FieldManager)}
		if r.Force {
			opts = append(opts, client.ForceOwnership)
		}
		err = c.Status().Apply(ctx, ac, opts...)
	} else {
		opts := []client.ApplyOption{client.FieldOwner(r.FieldManager)}
		if r.Force {
			opts = append(opts, client.ForceOwnership)
		}
		err = c.Apply(ctx, ac, opts...)
	}
	if err != nil {
		return err
	}
	return runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, obj)
}
