package ctrlplan

import (
	"context"
	"fmt"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/condengine/condengine/writeplan"
)

// Carry sends the plan's requests in order through c, each as a PATCH of
// obj (or of its status subresource), and stops at the first that fails:
// the host then reads the object again and makes a new plan. obj is
// updated from each response, so after Carry it holds what the server
// stored (unless the last request deleted it).
func Carry(ctx context.Context, c client.Client, obj client.Object, p writeplan.Plan) error {
	if obj.GetNamespace() != p.Namespace || obj.GetName() != p.Name {
		return fmt.Errorf("ctrlplan: the plan is for %s/%s, the object is %s/%s", p.Namespace, p.Name, obj.GetNamespace(), obj.GetName())
	}
	for _, r := range p.Requests {
		patch := client.RawPatch(r.PatchType, r.Body)
		var err error
		if r.Subresource == writeplan.SubresourceStatus {
			opts := []client.SubResourcePatchOption{client.FieldOwner(r.FieldManager)}
			if r.Force {
				opts = append(opts, client.ForceOwnership)
			}
			err = c.Status().Patch(ctx, obj, patch, opts...)
		} else {
			opts := []client.PatchOption{client.FieldOwner(r.FieldManager)}
			if r.Force {
				opts = append(opts, client.ForceOwnership)
			}
			err = c.Patch(ctx, obj, patch, opts...)
		}
		if err != nil {
			return fmt.Errorf("ctrlplan: %s of %s %s/%s: %w", r.Step, p.Kind, p.Namespace, p.Name, err)
		}
	}
	return nil
}
