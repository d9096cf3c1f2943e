package ctrlplan

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
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
//
// Each body goes out as the plan wrote it, a server-side apply too (a
// PATCH of the apply type, with ForceOwnership when the request says
// Force): client.Apply would encode the object again with encoding/json
// and lose the escapes that let an API server's YAML reader take a text
// holding a C1 control or DEL.
func Carry(ctx context.Context, c client.Client, obj client.Object, p writeplan.Plan) error {
	if obj.GetNamespace() != p.Namespace || obj.GetName() != p.Name {
		return fmt.Errorf("ctrlplan: the plan is for %s/%s, the object is %s/%s", p.Namespace, p.Name, obj.GetNamespace(), obj.GetName())
	}
	for _, r := range p.Requests {
		if r.AfterPrevious {
			var err error
			if r.Body, err = r.GuardedBody(obj.GetResourceVersion()); err != nil {
				return fmt.Errorf("ctrlplan: %w", err)
			}
		}
		if err := patch(ctx, c, obj, r); err != nil {
			return fmt.Errorf("ctrlplan: %s of %s %s/%s: %w", r.Step, p.Kind, p.Namespace, p.Name, err)
		}
	}
	return nil
}

// ours names the module's kinds whatever scheme the host built its
// client with: a typed object of ours is sent as unstructured, so a
// client that does not know our API groups still carries the plan.
var ours = Scheme()

// patch sends the request's body as a PATCH of obj (or of its status)
// and copies the object the server answered into obj.
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
		opts := []client.SubResourcePatchOption{client.FieldOwner(r.FieldManager)}
		if r.Force {
			opts = append(opts, client.ForceOwnership)
		}
		err = c.Status().Patch(ctx, target, p, opts...)
	} else {
		opts := []client.PatchOption{client.FieldOwner(r.FieldManager)}
		if r.Force {
			opts = append(opts, client.ForceOwnership)
		}
		err = c.Patch(ctx, target, p, opts...)
	}
	if err != nil || u == nil {
		return err
	}
	return runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, obj)
}
