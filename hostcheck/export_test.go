package hostcheck

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// ApplyStatus lets the FinOps test host write a status as the harness
// does when it prepares a world, so the two do not each build the apply.
func ApplyStatus(ctx context.Context, c client.Client, gvk schema.GroupVersionKind, ns, name, rv string, status any, owned []metav1.Condition) error {
	return applyStatus(ctx, c, finopsManager, gvk, ns, name, rv, status, owned)
}
