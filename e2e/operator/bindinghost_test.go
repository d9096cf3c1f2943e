package operator_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/condengine/condengine/binding/policy"
	"github.com/condengine/condengine/e2e/internal/seed"
	"github.com/condengine/condengine/examples/bindinghost"
)

// seed creates the seed's objects, one second apart so that their
// creationTimestamps, which are whole seconds, order them.
func (e *env) seed() {
	e.T.Helper()
	e.Kubectl(seed.Objects, "apply", "-f", "-")
	e.Kubectl(seed.BindingYAML("team-b", "support", "helpdesk", "team-a", "C1"), "apply", "-f", "-")
	time.Sleep(time.Second)
	e.Kubectl(seed.BindingYAML("team-a", "team-a-chat", "echo", "", "C2"), "apply", "-f", "-")
	time.Sleep(time.Second)
	e.Kubectl(seed.BindingYAML("team-a", "late", "echo", "", "C1"), "apply", "-f", "-")
}

// seededAndWritten seeds the cluster, starts the example host, probes
// every Binding and runs the host's first pass at the instant it returns.
func (e *env) seededAndWritten() (*bindinghost.Host, time.Time) {
	e.T.Helper()
	e.seed()
	h := e.host()
	e.probeAll(h)
	t0 := time.Now()
	e.run(h, t0)
	return h, t0
}

// TestBindingHost_SeedTable: the example host, run against the real server,
// makes `kubectl get akbinding -A` print the seed's table, with empty READY
// and REASON before its first write and the status owned by agent-kourier.
func TestBindingHost_SeedTable(t *testing.T) {
	e := newEnv(t)
	e.seed()
	before := e.Table("akbinding", "-A")
	require.Equal(t, []string{"NAMESPACE", "NAME", "READY", "REASON", "CHANNEL", "AGE"}, before.Header)
	require.Equal(t, []string{"", "", ""}, before.Column("READY"))
	require.Equal(t, []string{"", "", ""}, before.Column("REASON"))

	h := e.host()
	e.probeAll(h)
	rep := e.run(h, time.Now())
	require.ElementsMatch(t, rep.Written, []any{key("team-a", "late"), key("team-a", "team-a-chat"), key("team-b", "support")})

	after := e.Table("akbinding", "-A")
	if diff := cmp.Diff(seed.Rows, after.Without("AGE")); diff != "" {
		t.Errorf("the seed's table (-want +got):\n%s", diff)
	}
	for _, name := range []string{"team-a/late", "team-a/team-a-chat", "team-b/support"} {
		ns, n, _ := strings.Cut(name, "/")
		require.Equal(t, []string{"agent-kourier/Apply/status"}, managers(e, ns, n), name)
	}
	// A status: in an applied manifest does not reach the status.
	e.Kubectl(seed.BindingYAML("team-a", "late", "echo", "", "C1")+
		"status:\n  conditions:\n  - {type: Ready, status: \"True\", reason: OK, message: \"\", observedGeneration: 1, lastTransitionTime: \"2026-01-01T00:00:00Z\"}\n",
		"apply", "--server-side", "--force-conflicts", "-f", "-")
	if diff := cmp.Diff(seed.Rows, e.Table("akbinding", "-A").Without("AGE")); diff != "" {
		t.Errorf("after applying a manifest with a status (-want +got):\n%s", diff)
	}
	// Nothing changed: the next pass, past the gap, writes nothing.
	require.Empty(t, e.run(h, time.Now().Add(time.Minute)).Written)
}

// TestBindingHost_ForeignEditPutBackOnce_RepeatedEditsAreAFight: someone
// else's edit of the status is put back once; the third edit within ten
// minutes is reported as a fight.
func TestBindingHost_ForeignEditPutBackOnce_RepeatedEditsAreAFight(t *testing.T) {
	e := newEnv(t)
	h, t0 := e.seededAndWritten()
	chat := key("team-a", "team-a-chat")

	at := t0
	for edit := 1; edit <= 3; edit++ {
		e.foreignEdit("team-a", "team-a-chat", "EditedByHand")
		require.Equal(t, "False EditedByHand", readyOf(e.bindings()["team-a/team-a-chat"]))
		require.ElementsMatch(t, []string{"agent-kourier/Apply/status", "someone-else/Update/status"}, managers(e, "team-a", "team-a-chat"))
		at = at.Add(11 * time.Second) // past the 10 s gap from the last write
		rep := e.run(h, at)
		require.Contains(t, rep.PutBack, chat, "edit %d is a foreign edit", edit)
		if edit < 3 {
			require.NotContains(t, rep.FightsBegun, chat, "edit %d is not yet a fight", edit)
			require.Contains(t, rep.Written, chat, "edit %d is put back", edit)
			require.Equal(t, "True OK", readyOf(e.bindings()["team-a/team-a-chat"]))
			// The put-back is one write: the next pass has nothing to do.
			require.NotContains(t, e.run(h, at.Add(time.Second)).Written, chat)
		} else {
			require.Contains(t, rep.FightsBegun, chat, "three edits within ten minutes are a fight")
		}
	}
	// However spaced, the host's words come back once the backoff allows.
	for i := 0; i < 12 && readyOf(e.bindings()["team-a/team-a-chat"]) != "True OK"; i++ {
		at = at.Add(policy.DefaultLimits().BackoffCap)
		e.run(h, at)
	}
	require.Equal(t, "True OK", readyOf(e.bindings()["team-a/team-a-chat"]))
}

// TestBindingHost_KubectlWaitWaitsForTheNewGeneration: after a spec edit the
// host writes Accepted for generation 2 while Ready still describes
// generation 1 (its probes have not caught up); kubectl wait does not return
// on that old True, and returns once Ready describes generation 2.
func TestBindingHost_KubectlWaitWaitsForTheNewGeneration(t *testing.T) {
	e := newEnv(t)
	h, t0 := e.seededAndWritten()
	e.Kubectl("", "wait", "--for=condition=Ready", "--timeout=10s", "akbinding/team-a-chat", "-n", "team-a")

	e.Kubectl(`{"spec":{"chat":{"channel":"C3"}}}`, "patch", "akbinding", "team-a-chat", "-n", "team-a", "--type=merge", "--patch-file=/dev/stdin")
	e.run(h, t0.Add(11*time.Second))
	b := e.bindings()["team-a/team-a-chat"]
	require.Equal(t, int64(2), b.Generation)
	gens := map[string]int64{}
	for _, c := range b.Status.Conditions {
		gens[c.Type] = c.ObservedGeneration
	}
	require.Equal(t, int64(2), gens["Accepted"], "Accepted reaches the new generation first")
	require.Equal(t, int64(1), gens["Ready"], "Ready says nothing newer than its probes")
	require.Equal(t, "True", e.Table("akbinding", "team-a-chat", "-n", "team-a").Column("READY")[0], "the READY column still says True")

	_, err := e.C.Kubectl(e.Ctx, "", "wait", "--for=condition=Ready", "--timeout=3s", "akbinding/team-a-chat", "-n", "team-a")
	require.Error(t, err, "kubectl wait returned on the old generation's True")

	cmd := e.C.KubectlCmd(e.Ctx, "wait", "--for=condition=Ready", "--timeout=60s", "akbinding/team-a-chat", "-n", "team-a")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Start())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	h.RecordProbe(probeOK(e.bindings()["team-a/team-a-chat"]))
	e.run(h, t0.Add(22*time.Second))
	select {
	case err := <-done:
		require.NoError(t, err, out.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("kubectl wait did not return once Ready described generation 2: %s", out.String())
	}
}

// TestBindingHost_RecreatedBindingNeverShowsTheOldStatus: a Binding deleted
// and created again under its name is a new object; the host writes it from
// nothing (its probes were for the old UID), never the old status.
func TestBindingHost_RecreatedBindingNeverShowsTheOldStatus(t *testing.T) {
	e := newEnv(t)
	h, t0 := e.seededAndWritten()
	require.Equal(t, "True OK", readyOf(e.bindings()["team-a/team-a-chat"]))

	e.Kubectl("", "delete", "akbinding", "team-a-chat", "-n", "team-a", "--wait=true")
	e.Kubectl(seed.BindingYAML("team-a", "team-a-chat", "echo", "", "C2"), "apply", "-f", "-")
	require.Equal(t, []string{"team-a-chat", "", "", "C2"}, e.Table("akbinding", "team-a-chat", "-n", "team-a").Without("AGE")[0])

	e.run(h, t0.Add(time.Second))
	got := e.bindings()["team-a/team-a-chat"]
	require.Equal(t, "Unknown BackendReachable:Pending", readyOf(got), "the old probes were for another object")
	for _, c := range got.Status.Conditions {
		require.Equal(t, int64(1), c.ObservedGeneration)
	}
}

// TestBindingHost_WriteRacingARecreationDoesNotLandOnTheNewObject deletes and
// re-creates a Binding between the host's read and its write. The write,
// computed for the old object, must not land on the new one: the seed says
// the broker never carries the old object's status over.
func TestBindingHost_WriteRacingARecreationDoesNotLandOnTheNewObject(t *testing.T) {
	e := newEnv(t)
	e.seed()
	raced := false
	racing := interceptor.NewClient(e.cl, interceptor.Funcs{
		// ctrlplan sends the plan's status apply as it is, a PATCH of the
		// apply type.
		SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
			if patch.Type() == types.ApplyPatchType && !raced && obj.GetName() == "team-a-chat" {
				raced = true
				e.Kubectl("", "delete", "akbinding", "team-a-chat", "-n", "team-a", "--wait=true")
				e.Kubectl(seed.BindingYAML("team-a", "team-a-chat", "echo", "", "C2"), "apply", "-f", "-")
			}
			return c.SubResource(sub).Patch(ctx, obj, patch, opts...)
		},
	})
	h, err := bindinghost.New(racing, policy.DefaultLimits(), "")
	require.NoError(t, err)
	h.SetProberListed()
	e.probeAll(h)
	_, err = h.RunOnce(e.Ctx, time.Now())
	require.NoError(t, err)
	require.True(t, raced, "the race was not staged: no status apply for team-a-chat")

	got := e.bindings()["team-a/team-a-chat"]
	require.Empty(t, got.Status.Conditions,
		"a status computed for the deleted Binding landed on the new one (the status subresource ignores metadata.uid; a resourceVersion precondition would refuse it)")
}
