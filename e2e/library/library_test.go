package library_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	bkubectl "github.com/condengine/condengine/binding/kubectl"
	"github.com/condengine/condengine/e2e/internal/harness"
	"github.com/condengine/condengine/e2e/internal/kube"
	"github.com/condengine/condengine/e2e/internal/libhost"
	"github.com/condengine/condengine/e2e/internal/seed"
)

// The seed's objects, as the demo of cmd/condengine states them: team-b's
// support holds C1 on team-a's connection; team-a/late asks for C1 later
// and loses it; team-a-chat is alone on C2.
// goodProbes answers every Binding with a reachable agent and a joined
// channel, as a prober would after a clean pass.
func goodProbes(b *akv1.Binding) *binding.ProbeResult {
	card := &binding.AgentCard{Name: b.Spec.Agent.BackendRef.Name, Version: "1.0",
		SupportedInterfaces: []binding.AgentInterface{{URL: "https://agent.example.invalid/a2a", ProtocolBinding: "JSONRPC"}}}
	return &binding.ProbeResult{
		UID: b.UID, Namespace: b.Namespace, Name: b.Name, Generation: b.Generation,
		Backend: &binding.BackendObservation{HTTPStatus: 200, Card: card},
		Channel: &binding.ChannelObservation{OK: true, IsMember: true},
	}
}

type env struct{ *harness.Env }

func newEnv(t *testing.T) *env { return &env{harness.NewEnv(t, 2*time.Minute)} }

func (e *env) apply(manifest string) {
	e.T.Helper()
	e.Kubectl(manifest, "apply", "-f", "-")
}

// bindings lists the Bindings as the library's type.
func (e *env) bindings() []akv1.Binding {
	e.T.Helper()
	list, err := e.Dyn.Resource(kube.Bindings).List(e.Ctx, metav1.ListOptions{})
	require.NoError(e.T, err)
	var raws []json.RawMessage
	for i := range list.Items {
		raw, err := list.Items[i].MarshalJSON()
		require.NoError(e.T, err)
		raws = append(raws, raw)
	}
	objs, err := binding.DecodeObjects(raws)
	require.NoError(e.T, err)
	return objs.Bindings
}

// requireSameTable runs `kubectl get akbinding -A` and requires it to be,
// byte for byte, the table binding/kubectl renders from the same objects.
// AGE, the last column, is rendered at the instants just before and just
// after kubectl ran, and must equal one of them.
func (e *env) requireSameTable() string {
	e.T.Helper()
	objs := e.bindings()
	before := time.Now()
	out, err := e.C.Kubectl(e.Ctx, "", "get", "akbinding", "-A")
	require.NoError(e.T, err)
	after := time.Now()
	if out == bkubectl.Get(objs, before) || out == bkubectl.Get(objs, after) {
		return out
	}
	// A second boundary may fall between rows: compare without AGE, and
	// each AGE against both instants.
	got, err := kube.ParseTable(out)
	require.NoError(e.T, err)
	want, err := kube.ParseTable(bkubectl.Get(objs, before))
	require.NoError(e.T, err)
	if diff := cmp.Diff(want.Without("AGE"), got.Without("AGE")); diff != "" {
		e.T.Fatalf("kubectl and binding/kubectl disagree (-library +kubectl):\n%s\nkubectl printed:\n%s", diff, out)
	}
	late, _ := kube.ParseTable(bkubectl.Get(objs, after))
	for i, age := range got.Column("AGE") {
		require.Contains(e.T, []string{want.Column("AGE")[i], late.Column("AGE")[i]}, age)
	}
	// With the ages equal, the layout must be too.
	require.Equal(e.T, stripLastColumn(bkubectl.Get(objs, before)), stripLastColumn(out))
	return out
}

func stripLastColumn(table string) string {
	var b strings.Builder
	for line := range strings.Lines(table) {
		line = strings.TrimRight(line, "\n")
		if i := strings.LastIndex(line, "   "); i >= 0 {
			line = line[:i]
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// TestSeed_KubectlPrintsWhatTheEngineComputed creates the seed's objects,
// runs the engine as the leader of the default broker, writes what it
// decides, and reads it back with kubectl: the seed's rows, the library's
// bytes, agent-kourier's fields, and nothing to write on the next pass.
func TestSeed_KubectlPrintsWhatTheEngineComputed(t *testing.T) {
	e := newEnv(t)
	e.apply(seed.Objects)
	// Creation times are whole seconds; a second apart, the order is a fact.
	e.apply(seed.BindingYAML("team-b", "support", "helpdesk", "team-a", "C1"))
	time.Sleep(time.Second)
	e.apply(seed.BindingYAML("team-a", "team-a-chat", "echo", "", "C2"))
	time.Sleep(time.Second)
	e.apply(seed.BindingYAML("team-a", "late", "echo", "", "C1"))

	empty := e.requireSameTable()
	tbl, err := kube.ParseTable(empty)
	require.NoError(t, err)
	require.Equal(t, []string{"", "", ""}, tbl.Column("READY"), "no status before the first write")

	host := &libhost.Host{Dyn: e.Dyn, Probes: goodProbes,
		Broker: binding.Broker{Leader: true, ProberListed: true, StartedAt: time.Now().Add(-time.Hour)}}
	wrote, res, err := host.Step(e.Ctx, time.Now())
	require.NoError(t, err)
	require.Equal(t, 3, wrote)

	out := e.requireSameTable()
	tbl, err = kube.ParseTable(out)
	require.NoError(t, err)
	if diff := cmp.Diff(seed.Rows, tbl.Without("AGE")); diff != "" {
		t.Errorf("the seed's table (-want +got):\n%s", diff)
	}

	// The server stored the conditions exactly as the engine made them.
	stored := map[string][]metav1.Condition{}
	for _, b := range e.bindings() {
		stored[b.Namespace+"/"+b.Name] = b.Status.Conditions
		if b.Namespace != "team-a" {
			continue
		}
		for _, c := range b.Status.Conditions {
			for _, word := range []string{"team-b", "support", "helpdesk"} {
				require.NotContains(t, c.Message, word, "%s/%s %s: a status must not name another namespace's objects", b.Namespace, b.Name, c.Type)
			}
		}
	}
	for _, r := range res.Bindings {
		if diff := cmp.Diff(r.Conditions, stored[r.Namespace+"/"+r.Name]); diff != "" {
			t.Errorf("%s/%s: stored conditions differ from the engine's (-engine +stored):\n%s", r.Namespace, r.Name, diff)
		}
	}

	again, _, err := host.Step(e.Ctx, time.Now().Add(time.Minute))
	require.NoError(t, err)
	require.Zero(t, again, "an unchanged world must cause no write")
	// The ages have moved on by now; everything else must be as it was.
	require.Equal(t, stripLastColumn(out), stripLastColumn(e.requireSameTable()))
}
