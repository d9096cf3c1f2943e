package e2e_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"

	"github.com/condengine/condengine/e2e/internal/cluster"
	"github.com/condengine/condengine/e2e/internal/harness"
	"github.com/condengine/condengine/e2e/internal/kube"
)

// env is one test's view of the shared control plane.
type env struct {
	t   *testing.T
	ctx context.Context
	c   *cluster.Cluster
	dyn dynamic.Interface
}

func newEnv(t *testing.T) *env {
	t.Helper()
	c := harness.Need(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	dyn, err := dynamic.NewForConfig(c.RESTConfig())
	require.NoError(t, err)
	return &env{t: t, ctx: ctx, c: c, dyn: dyn}
}

// kubectl runs kubectl and fails the test on error.
func (e *env) kubectl(stdin string, args ...string) string {
	e.t.Helper()
	out, err := e.c.Kubectl(e.ctx, stdin, args...)
	require.NoError(e.t, err)
	return out
}

// namespace creates a namespace that no other test uses. Nothing deletes it:
// without a controller manager a namespace never finishes terminating.
func (e *env) namespace(name string) string {
	e.t.Helper()
	e.kubectl("", "create", "namespace", name)
	return name
}

// createBinding creates a Binding on the slack connection, answered by
// echo, and returns it as the server stored it.
func (e *env) createBinding(ns, name, channel string) *unstructured.Unstructured {
	e.t.Helper()
	return e.create(kube.Binding(ns, name, "echo", "slack", channel))
}

// create creates a Binding as the user e2e-user.
func (e *env) create(obj *unstructured.Unstructured) *unstructured.Unstructured {
	e.t.Helper()
	got, err := e.dyn.Resource(kube.Bindings).Namespace(obj.GetNamespace()).Create(e.ctx, obj, metav1.CreateOptions{FieldManager: "e2e-user"})
	require.NoError(e.t, err)
	return got
}

func (e *env) getBinding(ns, name string) *unstructured.Unstructured {
	e.t.Helper()
	got, err := e.dyn.Resource(kube.Bindings).Namespace(ns).Get(e.ctx, name, metav1.GetOptions{})
	require.NoError(e.t, err)
	return got
}

// applyStatus writes conds as agent-kourier does: server-side apply on the
// status subresource, forcing ownership back from anyone who edited the
// fields meanwhile.
func (e *env) applyStatus(obj *unstructured.Unstructured, conds ...kube.Cond) *unstructured.Unstructured {
	e.t.Helper()
	got, err := kube.ApplyStatus(e.ctx, e.dyn, kube.Bindings, "Binding", obj.GetNamespace(), obj.GetName(), "",
		kube.ConditionsStatus(conds...), kube.FieldManager, true)
	require.NoError(e.t, err)
	return got
}

// table runs `kubectl get` and cuts its output into cells.
func (e *env) table(args ...string) kube.Table {
	e.t.Helper()
	out := e.kubectl("", append([]string{"get"}, args...)...)
	tbl, err := kube.ParseTable(out)
	require.NoError(e.t, err, out)
	return tbl
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
