package e2e_test

import (
	"strings"
	"testing"
	"time"

	"github.com/condengine/condengine/e2e/internal/seed"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/condengine/condengine/e2e/internal/kube"
)

// TestKubectlGet_SeedTable prints the seed's `kubectl get akbinding -A`: empty
// READY and REASON before the first status write, then a Binding ready on C2
// and a younger one refused on C1, from statuses written as agent-kourier.
func TestKubectlGet_SeedTable(t *testing.T) {
	e := newEnv(t)
	e.Kubectl(seed.Objects, "apply", "-f", "-")
	// Creation times are whole seconds: a second apart, the ages are a fact
	// and not a tie.
	supportObj := kube.Binding("team-b", "support", "helpdesk", "slack", "C1")
	require.NoError(t, unstructured.SetNestedField(supportObj.Object, "team-a", "spec", "chat", "connectionRef", "namespace"))
	support := e.create(supportObj)
	time.Sleep(time.Second)
	chat := e.createBinding("team-a", "team-a-chat", "C2")
	time.Sleep(time.Second)
	late := e.createBinding("team-a", "late", "C1")

	before := e.Table("akbinding", "-A")
	require.Equal(t, []string{"NAMESPACE", "NAME", "READY", "REASON", "CHANNEL", "AGE"}, before.Header)
	if diff := cmp.Diff([][]string{
		{"team-a", "late", "", "", "C1"},
		{"team-a", "team-a-chat", "", "", "C2"},
		{"team-b", "support", "", "", "C1"},
	}, before.Without("AGE")); diff != "" {
		t.Errorf("before the first status write (-want +got):\n%s", diff)
	}
	ageLike(t, before.Column("AGE"))

	e.applyStatus(support, readyOK(1)...)
	e.applyStatus(chat, readyOK(1)...)
	e.applyStatus(late, channelConflict(1, "C1")...)

	after := e.Table("akbinding", "-A")
	if diff := cmp.Diff(seed.Rows, after.Without("AGE")); diff != "" {
		t.Errorf("after the status writes (-want +got):\n%s", diff)
	}
	ageLike(t, after.Column("AGE"))
	// The same view by the short name's alternatives: the resource name and
	// the category all print the same columns.
	require.Equal(t, after.Header, e.Table("bindings.agentkourier.dev", "-A").Header)
}

// TestStatus_OwnedByAgentKourierOnTheStatusSubresource reads managedFields:
// the status write is an Apply by agent-kourier on the status subresource,
// and the spec stays with whoever created the object.
func TestStatus_OwnedByAgentKourierOnTheStatusSubresource(t *testing.T) {
	e := newEnv(t)
	ns := e.namespace("managed-fields")
	b := e.createBinding(ns, "b", "C1")
	e.applyStatus(b, readyOK(1)...)

	got := e.getBinding(ns, "b")
	require.ElementsMatch(t, []string{"e2e-user/Update/", "agent-kourier/Apply/status"}, managers(got))
	for _, mf := range got.GetManagedFields() {
		fields := mf.FieldsV1.GetRawString()
		if mf.Manager == "agent-kourier" {
			require.Contains(t, fields, `"f:status":{"f:conditions":{`)
			require.Contains(t, fields, `"k:{\"type\":\"Ready\"}"`, "conditions are a map keyed by type")
			require.NotContains(t, fields, `"f:spec"`)
		} else {
			require.NotContains(t, fields, `"f:status"`)
		}
	}
	// kubectl shows the same owner to a user who asks.
	out := e.Kubectl("", "get", "akbinding", "b", "-n", ns, "--show-managed-fields", "-o",
		`jsonpath={range .metadata.managedFields[*]}{.manager}{" "}{.operation}{" "}{.subresource}{"\n"}{end}`)
	require.ElementsMatch(t, []string{"e2e-user Update ", "agent-kourier Apply status"}, strings.Split(strings.TrimSuffix(out, "\n"), "\n"))
}

// TestStatus_InAnAppliedManifestIsIgnored applies manifests that carry a
// status, by every route a user has, and finds the status untouched: it is a
// subresource, written only through /status.
func TestStatus_InAnAppliedManifestIsIgnored(t *testing.T) {
	e := newEnv(t)
	ns := e.namespace("status-in-manifest")
	forged := func(name string) string {
		return `
apiVersion: agentkourier.dev/v1alpha1
kind: Binding
metadata: {namespace: ` + ns + `, name: ` + name + `}
spec:
  agent: {backendRef: {name: echo}}
  chat: {connectionRef: {name: slack}, channel: C9}
status:
  conditions:
  - {type: Ready, status: "True", reason: Forged, message: "", observedGeneration: 1, lastTransitionTime: "2026-01-01T00:00:00Z"}
`
	}
	// On create, by each route: no status at all.
	e.Kubectl(forged("created"), "create", "-f", "-")
	e.Kubectl(forged("client-side"), "apply", "-f", "-")
	e.Kubectl(forged("server-side"), "apply", "--server-side", "-f", "-")
	for _, name := range []string{"created", "client-side", "server-side"} {
		_, found, err := unstructured.NestedFieldNoCopy(e.getBinding(ns, name).Object, "status")
		require.NoError(t, err)
		require.False(t, found, "%s: a status in the manifest must not be stored", name)
	}

	// On an object whose status agent-kourier wrote: the status stays its own.
	b := e.getBinding(ns, "server-side")
	e.applyStatus(b, channelConflict(1, "C9")...)
	e.Kubectl(forged("server-side"), "apply", "--server-side", "-f", "-")
	e.Kubectl(forged("server-side"), "apply", "--server-side", "--force-conflicts", "-f", "-")
	e.Kubectl(strings.Replace(forged("server-side"), "C9", "C8", 1), "replace", "-f", "-")
	got := conditions(t, e.getBinding(ns, "server-side"))
	require.Equal(t, "Accepted:ChannelConflict", got["Ready"]["reason"])
	require.Len(t, got, 2)
	require.Equal(t, "C8", e.Table("akbinding", "server-side", "-n", ns).Column("CHANNEL")[0])
}

// TestKubectlGet_EmptyReadyAndReasonUntilTheFirstWrite_AfterRecreation deletes a
// Binding with a status and creates it again under the same name: the new
// object has generation 1 and no status, so kubectl shows empty READY and
// REASON until the host writes for the new object.
func TestKubectlGet_EmptyReadyAndReasonUntilTheFirstWrite_AfterRecreation(t *testing.T) {
	e := newEnv(t)
	ns := e.namespace("recreated")
	old := e.createBinding(ns, "again", "C1")
	e.applyStatus(old, readyOK(1)...)
	require.Equal(t, []string{"True"}, e.Table("akbinding", "-n", ns).Column("READY"))

	e.Kubectl("", "delete", "akbinding", "again", "-n", ns, "--wait=true")
	fresh := e.createBinding(ns, "again", "C1")
	require.NotEqual(t, old.GetUID(), fresh.GetUID())
	require.Equal(t, int64(1), fresh.GetGeneration())

	tbl := e.Table("akbinding", "-n", ns)
	if diff := cmp.Diff([][]string{{"again", "", "", "C1"}}, tbl.Without("AGE")); diff != "" {
		t.Errorf("re-created Binding (-want +got):\n%s", diff)
	}
}

// TestStatusWrite_ResourceVersionAndNotUIDGuardsAgainstARecreatedObject
// records what a writer can rely on when a Binding is deleted and created
// again between its read and its write. The status subresource takes
// metadata from the stored object, so a UID sent with the write is ignored
// and the old object's status lands on the new one; a resourceVersion sent
// with it is checked, and the write is refused.
func TestStatusWrite_ResourceVersionAndNotUIDGuardsAgainstARecreatedObject(t *testing.T) {
	e := newEnv(t)
	ns := e.namespace("recreated-guard")
	old := e.createBinding(ns, "again", "C1")
	e.Kubectl("", "delete", "akbinding", "again", "-n", ns, "--wait=true")
	fresh := e.createBinding(ns, "again", "C1")

	_, err := kube.ApplyStatus(e.Ctx, e.Dyn, kube.Bindings, "Binding", ns, "again", old.GetResourceVersion(),
		kube.ConditionsStatus(readyOK(1)...), kube.FieldManager, true)
	require.Error(t, err)
	require.True(t, apierrors.IsConflict(err), "want a conflict, got %v", err)
	require.Equal(t, []string{""}, e.Table("akbinding", "-n", ns).Column("READY"))

	stale := kube.ConditionsStatus(readyOK(1)...)
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "agentkourier.dev/v1alpha1", "kind": "Binding",
		"metadata": map[string]any{"namespace": ns, "name": "again", "uid": string(old.GetUID())},
		"status":   stale,
	}}
	got, err := e.Dyn.Resource(kube.Bindings).Namespace(ns).ApplyStatus(e.Ctx, "again", obj,
		metav1.ApplyOptions{FieldManager: kube.FieldManager, Force: true})
	require.NoError(t, err, "the status subresource ignores metadata.uid: if this now fails, the API server has started checking it")
	require.Equal(t, fresh.GetUID(), got.GetUID())
	require.Equal(t, []string{"True"}, e.Table("akbinding", "-n", ns).Column("READY"))
}

// TestKubectlWait_HonoursObservedGeneration: after a spec edit the old
// Ready=True describes the old generation; kubectl 1.37 waits for a Ready
// that describes the new one.
func TestKubectlWait_HonoursObservedGeneration(t *testing.T) {
	e := newEnv(t)
	ns := e.namespace("wait-generation")
	b := e.createBinding(ns, "w", "C1")
	e.applyStatus(b, readyOK(1)...)
	e.Kubectl("", "wait", "--for=condition=Ready", "--timeout=10s", "akbinding/w", "-n", ns)

	e.Kubectl(`{"spec":{"chat":{"channel":"C2"}}}`, "patch", "akbinding", "w", "-n", ns, "--type=merge", "--patch-file=/dev/stdin")
	b = e.getBinding(ns, "w")
	require.Equal(t, int64(2), b.GetGeneration())

	// The old True does not satisfy the wait.
	_, err := e.C.Kubectl(e.Ctx, "", "wait", "--for=condition=Ready", "--timeout=3s", "akbinding/w", "-n", ns)
	require.Error(t, err, "kubectl wait returned on a Ready of generation 1")
	require.Contains(t, err.Error(), "timed out")

	cmd := e.C.KubectlCmd(e.Ctx, "wait", "--for=condition=Ready", "--timeout=60s", "akbinding/w", "-n", ns)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Start())
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()

	// Accepted catches up first; Ready still describes generation 1.
	partial := readyOK(1)
	partial[0].ObservedGeneration = 2
	e.applyStatus(b, partial...)
	select {
	case err := <-waited:
		t.Fatalf("kubectl wait returned before Ready described generation 2: %v: %s", err, out.String())
	case <-time.After(3 * time.Second):
	}

	e.applyStatus(b, readyOK(2)...)
	select {
	case err := <-waited:
		require.NoError(t, err, out.String())
		require.Contains(t, out.String(), "condition met")
	case <-time.After(30 * time.Second):
		t.Fatalf("kubectl wait did not return after Ready reached generation 2: %s", out.String())
	}
}
