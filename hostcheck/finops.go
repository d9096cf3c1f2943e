package hostcheck

import (
	"context"
	"errors"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/condengine/condengine/binding"
)

// finopsSystem is the FinOps operator.
type finopsSystem struct{}

var errFinOps = errors.New("hostcheck: the FinOps system is not built yet")

func (finopsSystem) kinds() []schema.GroupVersionKind       { return nil }
func (finopsSystem) statusKinds() []schema.GroupVersionKind { return nil }
func (finopsSystem) scheme() *runtime.Scheme                { return runtime.NewScheme() }
func (finopsSystem) manager() string                        { return "finops-operator" }
func (finopsSystem) ours(string, string) bool               { return false }
func (finopsSystem) finalizer(string) string                { return "" }
func (finopsSystem) world(uint64) ([]client.Object, error)  { return nil, errFinOps }
func (finopsSystem) edit(context.Context, client.Client, event, int, time.Time) error {
	return errFinOps
}
func (finopsSystem) requests(*unstructured.Unstructured, []*unstructured.Unstructured) []types.NamespacedName {
	return nil
}
func (finopsSystem) expect([]*unstructured.Unstructured, []binding.ProbeResult, time.Time, time.Time) (map[objKey]expected, error) {
	return nil, errFinOps
}
func (finopsSystem) probe(*unstructured.Unstructured, int64, int) (binding.ProbeResult, bool) {
	return binding.ProbeResult{}, false
}

func (finopsSystem) prepare(context.Context, client.Client) ([]binding.ProbeResult, error) {
	return nil, errFinOps
}
