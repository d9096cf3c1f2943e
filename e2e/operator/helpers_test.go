package operator_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/policy"
	"github.com/condengine/condengine/e2e/internal/harness"
	"github.com/condengine/condengine/e2e/internal/kube"
	"github.com/condengine/condengine/examples/bindinghost"
)

type env struct {
	*harness.Env
	cl client.WithWatch
}

func newEnv(t *testing.T) *env {
	t.Helper()
	base := harness.NewEnv(t, 3*time.Minute)
	c := base.C
	cl, err := client.NewWithWatch(c.RESTConfig(), client.Options{})
	require.NoError(t, err)
	e := &env{Env: base, cl: cl}
	// The hosts list Bindings in every namespace: each test leaves none
	// behind for the next one's host to find.
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, _ = c.Kubectl(ctx, "", "delete", "akbinding", "--all", "--all-namespaces", "--wait=true")
	})
	return e
}

// host is an example Binding host of the default broker with the default
// limits, as a broker that has run long enough for its prober to list.
func (e *env) host() *bindinghost.Host {
	e.T.Helper()
	h, err := bindinghost.New(e.cl, policy.DefaultLimits(), "")
	require.NoError(e.T, err)
	h.SetProberListed()
	return h
}

// run runs one pass of h at now and fails the test on a listing error or
// a failed write.
func (e *env) run(h *bindinghost.Host, now time.Time) bindinghost.Report {
	e.T.Helper()
	rep, err := h.RunOnce(e.Ctx, now)
	require.NoError(e.T, err)
	require.Empty(e.T, rep.Failed)
	return rep
}

// bindings lists the Bindings as the library's type, by namespace/name.
func (e *env) bindings() map[string]akv1.Binding {
	e.T.Helper()
	list, err := e.Dyn.Resource(kube.Bindings).List(e.Ctx, metav1.ListOptions{})
	require.NoError(e.T, err)
	out := map[string]akv1.Binding{}
	for i := range list.Items {
		raw, err := list.Items[i].MarshalJSON()
		require.NoError(e.T, err)
		objs, err := binding.DecodeObjects([]json.RawMessage{raw})
		require.NoError(e.T, err)
		b := objs.Bindings[0]
		out[b.Namespace+"/"+b.Name] = b
	}
	return out
}

// probeOK is a finished clean probe pass for b's current generation.
func probeOK(b akv1.Binding) binding.ProbeResult {
	card := &binding.AgentCard{Name: b.Spec.Agent.BackendRef.Name, Version: "1.0",
		SupportedInterfaces: []binding.AgentInterface{{URL: "https://agent.example.invalid/a2a", ProtocolBinding: "JSONRPC"}}}
	return binding.ProbeResult{
		UID: b.UID, Namespace: b.Namespace, Name: b.Name, Generation: b.Generation,
		Backend: &binding.BackendObservation{HTTPStatus: 200, Card: card},
		Channel: &binding.ChannelObservation{OK: true, IsMember: true},
	}
}

// probeAll records a clean probe for every Binding now on the server.
func (e *env) probeAll(h *bindinghost.Host) {
	e.T.Helper()
	for _, b := range e.bindings() {
		h.RecordProbe(probeOK(b))
	}
}

// foreignEdit writes Ready as someone else would: a merge patch of the
// status subresource by another field manager.
func (e *env) foreignEdit(ns, name, reason string) {
	e.T.Helper()
	b := e.bindings()[ns+"/"+name]
	conds := make([]any, 0, len(b.Status.Conditions))
	for _, c := range b.Status.Conditions {
		if c.Type == binding.TypeReady {
			c.Status, c.Reason, c.Message = metav1.ConditionFalse, reason, "edited by hand"
		}
		conds = append(conds, c)
	}
	patch, err := json.Marshal(map[string]any{"status": map[string]any{"conditions": conds}})
	require.NoError(e.T, err)
	_, err = e.Dyn.Resource(kube.Bindings).Namespace(ns).Patch(e.Ctx, name, types.MergePatchType, patch,
		metav1.PatchOptions{FieldManager: "someone-else"}, "status")
	require.NoError(e.T, err)
}

func readyOf(b akv1.Binding) string {
	for _, c := range b.Status.Conditions {
		if c.Type == binding.TypeReady {
			return string(c.Status) + " " + c.Reason
		}
	}
	return ""
}

func managers(e *env, ns, name string) []string {
	e.T.Helper()
	obj, err := e.Dyn.Resource(kube.Bindings).Namespace(ns).Get(e.Ctx, name, metav1.GetOptions{})
	require.NoError(e.T, err)
	var out []string
	for _, mf := range obj.GetManagedFields() {
		if strings.Contains(mf.FieldsV1.GetRawString(), `"f:status"`) {
			out = append(out, mf.Manager+"/"+string(mf.Operation)+"/"+mf.Subresource)
		}
	}
	return out
}

func key(ns, name string) types.NamespacedName {
	return types.NamespacedName{Namespace: ns, Name: name}
}
