package e2e_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/condengine/condengine/e2e/internal/harness"
	"github.com/condengine/condengine/e2e/internal/kube"
)

// env is one test's view of the shared control plane.
type env struct{ *harness.Env }

func newEnv(t *testing.T) *env { return &env{harness.NewEnv(t, 2*time.Minute)} }

// namespace creates a namespace that no other test uses. Nothing deletes it:
// without a controller manager a namespace never finishes terminating.
func (e *env) namespace(name string) string {
	e.T.Helper()
	e.Kubectl("", "create", "namespace", name)
	return name
}

// createBinding creates a Binding on the slack connection, answered by
// echo, and returns it as the server stored it.
func (e *env) createBinding(ns, name, channel string) *unstructured.Unstructured {
	e.T.Helper()
	return e.create(kube.Binding(ns, name, "echo", "slack", channel))
}

// create creates a Binding as the user e2e-user.
func (e *env) create(obj *unstructured.Unstructured) *unstructured.Unstructured {
	e.T.Helper()
	got, err := e.Dyn.Resource(kube.Bindings).Namespace(obj.GetNamespace()).Create(e.Ctx, obj, metav1.CreateOptions{FieldManager: "e2e-user"})
	require.NoError(e.T, err)
	return got
}

func (e *env) getBinding(ns, name string) *unstructured.Unstructured {
	e.T.Helper()
	got, err := e.Dyn.Resource(kube.Bindings).Namespace(ns).Get(e.Ctx, name, metav1.GetOptions{})
	require.NoError(e.T, err)
	return got
}

// applyStatus writes conds as agent-kourier does: server-side apply on the
// status subresource, forcing ownership back from anyone who edited the
// fields meanwhile.
func (e *env) applyStatus(obj *unstructured.Unstructured, conds ...kube.Cond) *unstructured.Unstructured {
	e.T.Helper()
	got, err := kube.ApplyStatus(e.Ctx, e.Dyn, kube.Bindings, "Binding", obj.GetNamespace(), obj.GetName(), "",
		kube.ConditionsStatus(conds...), kube.FieldManager, true)
	require.NoError(e.T, err)
	return got
}

// conditions reads status.conditions as type -> condition.
func conditions(t *testing.T, obj *unstructured.Unstructured) map[string]map[string]any {
	t.Helper()
	list, _, err := unstructured.NestedSlice(obj.Object, "status", "conditions")
	require.NoError(t, err)
	out := map[string]map[string]any{}
	for _, c := range list {
		m := c.(map[string]any)
		out[m["type"].(string)] = m
	}
	return out
}

// The seed's two rows, as the engine states them (binding-status.txt).
func readyOK(gen int64) []kube.Cond {
	return []kube.Cond{
		{Type: "Accepted", Status: "True", Reason: "OK", ObservedGeneration: gen},
		{Type: "BackendReachable", Status: "True", Reason: "OK", ObservedGeneration: gen},
		{Type: "ChannelJoined", Status: "True", Reason: "OK", ObservedGeneration: gen},
		{Type: "Ready", Status: "True", Reason: "OK", ObservedGeneration: gen},
	}
}

func channelConflict(gen int64, channel string) []kube.Cond {
	msg := "spec.chat.channel: channel " + channel + " is already bound by a Binding in another namespace"
	return []kube.Cond{
		{Type: "Accepted", Status: "False", Reason: "ChannelConflict", Message: msg, ObservedGeneration: gen},
		{Type: "Ready", Status: "False", Reason: "Accepted:ChannelConflict", Message: msg, ObservedGeneration: gen},
	}
}

// ageLike matches kubectl's AGE cell, as in 3s, 4m or 2m10s.
func ageLike(t *testing.T, cells []string) {
	t.Helper()
	for _, c := range cells {
		require.Regexp(t, `^[0-9]+[smhd]([0-9]+[smh])?$`, c)
	}
}

// managers lists the managedFields entries as manager/operation/subresource.
func managers(obj *unstructured.Unstructured) []string {
	var out []string
	for _, mf := range obj.GetManagedFields() {
		out = append(out, strings.Join([]string{mf.Manager, string(mf.Operation), mf.Subresource}, "/"))
	}
	return out
}
