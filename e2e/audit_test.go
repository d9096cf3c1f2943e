package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/e2e/internal/kube"
	"github.com/condengine/condengine/e2e/internal/libhost"
	"github.com/condengine/condengine/e2e/internal/seed"
	"github.com/condengine/condengine/explain"
)

// TestKubectlCondengineAudit_CatchesAWrongReasonUntilTheCorrectHostRuns
// runs the audit plugin the way an SRE does, `kubectl condengine audit`,
// through the real kubectl, which finds kubectl-condengine on PATH. A host
// with a bug writes Accepted reason ChannelFree where the engine says OK on
// one of two Bindings: audit exits 1 and names that Binding and that
// condition, written against due, and not the other. After the correct
// host has run, audit exits 0. Neither run writes to the cluster.
func TestKubectlCondengineAudit_CatchesAWrongReasonUntilTheCorrectHostRuns(t *testing.T) {
	e := newEnv(t)
	plugins := buildAuditPlugin(t)
	ns := e.namespace("audit-drift")
	// Other tests print `kubectl get akbinding -A` and expect only their
	// own rows: the objects go when the test ends (the namespace cannot,
	// without a controller manager).
	t.Cleanup(func() {
		e.Kubectl("", "delete", "bindings.agentkourier.dev,agentbackends.agentkourier.dev,chatconnections.agentkourier.dev",
			"--all", "-n", ns, "--wait=true")
	})
	// holder is created first (or, within the same second, wins on its
	// name) and holds C1; latecomer is refused.
	e.Kubectl(`
apiVersion: agentkourier.dev/v1alpha1
kind: ChatConnection
metadata: {namespace: `+ns+`, name: slack}
spec: {platform: slack, tokenSecretRef: {name: slack-bot-token, key: token}}
---
apiVersion: agentkourier.dev/v1alpha1
kind: AgentBackend
metadata: {namespace: `+ns+`, name: echo}
spec: {url: "https://echo.`+ns+`.svc.cluster.local"}
---
`+seed.BindingYAML(ns, "holder", "echo", "", "C1")+`---
`+seed.BindingYAML(ns, "latecomer", "echo", "", "C1"), "apply", "-f", "-")

	// The broker audit assumes: the default one, leading, its prober
	// past its first list, no probe finished yet.
	broker := binding.Broker{Leader: true, ProberListed: true, StartedAt: time.Now().Add(-24 * time.Hour)}
	buggy := &libhost.Host{Dyn: e.Dyn, Namespace: ns, Broker: broker,
		Edit: func(_, _ string, conds []metav1.Condition) {
			for i := range conds {
				if conds[i].Type == binding.TypeAccepted && conds[i].Reason == "OK" {
					conds[i].Reason = "ChannelFree"
				}
			}
		}}
	wrote, _, err := buggy.Step(e.Ctx, time.Now())
	require.NoError(t, err)
	require.Equal(t, 2, wrote, "the buggy host writes both Bindings")
	require.Equal(t, "ChannelFree", conditions(t, e.getBinding(ns, "holder"))["Accepted"]["reason"])
	holderRV := e.getBinding(ns, "holder").GetResourceVersion()

	// The table: one row, the holder's Accepted, written against due.
	out, code := e.audit(plugins, "-n", ns)
	require.Equal(t, 1, code, "audit must exit 1 on drift:\n%s", out)
	lines := strings.Split(out, "\n")
	blank := slices.Index(lines, "")
	require.Positive(t, blank, out)
	// Under each drift row, indented, the due condition's decision.
	var rows, why []string
	for _, l := range lines[:blank] {
		if strings.HasPrefix(l, " ") {
			why = append(why, strings.TrimSpace(l))
		} else {
			rows = append(rows, l)
		}
	}
	tbl, err := kube.ParseTable(strings.Join(rows, "\n"))
	require.NoError(t, err, out)
	require.NotEmpty(t, why, "the due condition's decision is printed under the drift:\n%s", out)
	require.True(t, strings.HasPrefix(why[0], "← rule binding/accepted/ok: "), out)
	require.Contains(t, why, "← Binding "+ns+"/holder (uid "+string(e.getBinding(ns, "holder").GetUID())+", generation 1)", out)
	require.Contains(t, why, "spec.chat.channel: C1", out)
	require.Equal(t, []string{"KIND", "NAMESPACE", "NAME", "CONDITION", "DIFFERS IN", "WRITTEN", "DUE", "DUE MESSAGE"}, tbl.Header, out)
	if diff := cmp.Diff([][]string{
		{"Binding", ns, "holder", "Accepted", "reason", "True/ChannelFree (gen 1)", "True/OK (gen 1)", "-"},
	}, tbl.Rows); diff != "" {
		t.Errorf("audit's table (-want +got):\n%s\n%s", diff, out)
	}
	require.Contains(t, out, "\n  Binding "+ns+"/holder: BackendReachable, ChannelJoined, Ready\n", "an accepted Binding's probe-dependent conditions are not judged")
	require.NotContains(t, out, ns+"/latecomer:", "a refused Binding is judged whole")
	require.True(t, strings.HasSuffix(out, "\n2 objects audited, 1 drifted\n"), out)

	// The same verdict as JSON, field by field.
	out, code = e.audit(plugins, "-n", ns, "-o", "json")
	require.Equal(t, 1, code, out)
	var report auditReport
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&report), out)
	// The decision beside the drift: its rule, and the objects it read,
	// the holder first.
	require.NotEmpty(t, report.Objects, out)
	require.NotEmpty(t, report.Objects[0].Drift, out)
	decision := report.Objects[0].Drift[0].Why
	require.NotNil(t, decision, out)
	require.Equal(t, "binding/accepted/ok", decision.Rule, out)
	require.NotEmpty(t, decision.Sentence, out)
	var read []string
	for _, ev := range decision.Evidence {
		read = append(read, ev.Object.Kind+" "+ev.Object.Namespace+"/"+ev.Object.Name)
	}
	require.Equal(t, []string{"Binding " + ns + "/holder", "AgentBackend " + ns + "/echo", "ChatConnection " + ns + "/slack"}, read, out)
	require.Equal(t, e.getBinding(ns, "holder").GetUID(), decision.Evidence[0].Object.UID, out)
	report.Objects[0].Drift[0].Why = nil
	if diff := cmp.Diff(auditReport{
		Drifted: 1,
		Objects: []auditObject{
			{Kind: "Binding", Namespace: ns, Name: "holder",
				Drift: []auditDrift{{Type: "Accepted",
					Written: &auditCondition{Status: "True", Reason: "ChannelFree", ObservedGeneration: 1},
					Due:     &auditCondition{Status: "True", Reason: "OK", ObservedGeneration: 1}}},
				NotJudged: []string{"BackendReachable", "ChannelJoined", "Ready"}},
			{Kind: "Binding", Namespace: ns, Name: "latecomer"},
		},
	}, report); diff != "" {
		t.Errorf("audit -o json (-want +got):\n%s\n%s", diff, out)
	}
	require.Equal(t, holderRV, e.getBinding(ns, "holder").GetResourceVersion(), "audit must not write")

	// The correct host puts the holder's Accepted right and leaves the
	// latecomer, which was written as due, alone.
	host := &libhost.Host{Dyn: e.Dyn, Namespace: ns, Broker: broker}
	wrote, _, err = host.Step(e.Ctx, time.Now())
	require.NoError(t, err)
	require.Equal(t, 1, wrote, "only the holder's status was wrong")
	require.Equal(t, "OK", conditions(t, e.getBinding(ns, "holder"))["Accepted"]["reason"])

	out, code = e.audit(plugins, "-n", ns)
	require.Equal(t, 0, code, "audit must exit 0 once what is written is what is due:\n%s", out)
	require.NotContains(t, out, "KIND", "no drift table")
	require.True(t, strings.HasSuffix(out, "\n2 objects audited, 0 drifted\n"), out)
}

// The parts of kubectl-condengine's JSON report the test reads; unknown
// fields are an error, so a field added to the report is seen here.
type auditReport struct {
	Objects []auditObject `json:"objects"`
	Drifted int           `json:"drifted"`
}

type auditObject struct {
	Kind      string       `json:"kind"`
	Namespace string       `json:"namespace"`
	Name      string       `json:"name"`
	Drift     []auditDrift `json:"drift"`
	NotJudged []string     `json:"notJudged"`
}

type auditDrift struct {
	Type    string            `json:"type"`
	Written *auditCondition   `json:"written"`
	Due     *auditCondition   `json:"due"`
	Why     *explain.Decision `json:"why"`
}

type auditCondition struct {
	Status             string `json:"status"`
	Reason             string `json:"reason"`
	Message            string `json:"message"`
	ObservedGeneration int64  `json:"observedGeneration"`
}

// audit runs `kubectl condengine audit args...` through the real kubectl
// and returns its standard output and exit status. Anything on standard
// error (a note that a group is not served, say) fails the test: on this
// cluster audit has nothing to warn about.
func (e *env) audit(plugins string, args ...string) (string, int) {
	e.T.Helper()
	cmd := e.C.PluginCmd(e.Ctx, plugins, append([]string{"condengine", "audit"}, args...)...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		e.T.Fatalf("kubectl condengine audit %s: %v", strings.Join(args, " "), err)
	}
	require.Empty(e.T, errOut.String(), "stderr of kubectl condengine audit %s", strings.Join(args, " "))
	return out.String(), cmd.ProcessState.ExitCode()
}

// buildAuditPlugin builds cmd/kubectl-condengine, its own module, into a
// temporary directory and returns the directory, for PATH. The flags are
// run.sh's: -trimpath lets the build reuse packages compiled for the same
// module versions, and without a symbol table and DWARF the link, which
// is most of a warm build, takes about 40% less; -buildvcs=false keeps a
// checkout that git refuses to read (another owner, as in containers)
// from failing the build over a stamp nobody reads. A cold Go build cache
// makes the build take minutes, so it has its own time limit and not the
// test's.
func buildAuditPlugin(t *testing.T) string {
	t.Helper()
	src, err := pluginSource()
	require.NoError(t, err)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	start := time.Now()
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", filepath.Join(dir, "kubectl-condengine"), ".")
	cmd.Dir = src
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go build in %s:\n%s", src, out)
	t.Logf("built kubectl-condengine in %s", time.Since(start).Round(time.Millisecond))
	return dir
}

// pluginSource finds cmd/kubectl-condengine by walking up from the working
// directory, which for `go test` is somewhere under e2e/.
func pluginSource() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; d = filepath.Dir(d) {
		src := filepath.Join(d, "cmd", "kubectl-condengine")
		if _, err := os.Stat(filepath.Join(src, "go.mod")); err == nil {
			return src, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no cmd/kubectl-condengine/go.mod above %s", wd)
		}
	}
}
