package bindingtest_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/bindingtest"
	"github.com/condengine/condengine/scenario"
	"github.com/condengine/condengine/system"
)

const runnerScenario = `
name: runner unit test
system: binding
now: "2026-11-30T10:00:00Z"
broker: {name: "", leader: true}
objects:
  - {apiVersion: agentkourier.dev/v1alpha1, kind: AgentBackend, metadata: {namespace: team-a, name: echo, uid: u-e, generation: 1}, spec: {url: "https://e"}}
  - {apiVersion: agentkourier.dev/v1alpha1, kind: ChatConnection, metadata: {namespace: team-a, name: slack, uid: u-s, generation: 1}, spec: {platform: slack, tokenSecretRef: {name: t, key: k}}}
  - {apiVersion: v1, kind: ConfigMap, metadata: {namespace: team-a, name: other}}
  - apiVersion: agentkourier.dev/v1alpha1
    kind: Binding
    metadata: {namespace: team-a, name: chat, uid: u-chat, generation: 2, creationTimestamp: "2026-11-30T09:00:00Z"}
    spec: {agent: {backendRef: {name: echo}}, chat: {connectionRef: {name: slack}, channel: C1}}
probes:
  - {binding: team-a/chat, generation: 2, backend: {http: 503}, channel: {ok: true, isMember: false}}
expect:
  - kind: Binding
    namespace: team-a
    name: chat
    write: true
    conditions:
      - {type: Accepted, status: "True", reason: OK, observedGeneration: 2}
      - {type: BackendReachable, status: "False", reason: BackendError, observedGeneration: 2}
      - {type: ChannelJoined, status: "False", reason: NotInChannel, observedGeneration: 2}
      - {type: Ready, status: "False", reason: "BackendReachable:BackendError", observedGeneration: 2}
`

func TestRun_MapsTheFileAndTheResult(t *testing.T) {
	f, err := scenario.Parse([]byte(runnerScenario))
	require.NoError(t, err)
	out, err := bindingtest.Run(f, false)
	require.NoError(t, err)
	require.Len(t, out, 2, "only Bindings and the prober get an outcome")
	o := out[0]
	require.Equal(t, "team-a/chat", o.Namespace+"/"+o.Name)
	require.True(t, o.Write)
	require.Len(t, o.Conditions, 4)
	var st akv1.BindingStatus
	require.NoError(t, json.Unmarshal(o.Status, &st))
	require.Len(t, st.Conditions, 4, "status carries the written conditions")
	require.Empty(t, f.Check(out))
}

func TestRun_WrongExpectationFails(t *testing.T) {
	bad := strings.Replace(runnerScenario, "reason: NotInChannel", "reason: ChannelArchived", 1)
	f, err := scenario.Parse([]byte(bad))
	require.NoError(t, err)
	r := system.Runners(bindingtest.System()).Run(f)
	require.False(t, r.Passed())
	require.Contains(t, r.Diff, "ChannelArchived")
}

func TestRun_Defaults(t *testing.T) {
	f, err := scenario.Parse([]byte(strings.Replace(runnerScenario, "broker: {name: \"\", leader: true}\n", "", 1)))
	require.NoError(t, err)
	s, err := bindingtest.Snapshot(f)
	require.NoError(t, err)
	require.True(t, s.Broker.Leader)
	require.True(t, s.Broker.ProberListed)
	require.Equal(t, binding.ConfigSourceCRDs, s.Broker.ConfigSource)
	require.Equal(t, f.Now.Add(-3600e9), s.Broker.StartedAt)
	require.Equal(t, bindingtest.DefaultBroker(f.Now.Time), s.Broker, "the defaults are DefaultBroker's")
	require.Len(t, s.Probes, 1)
	require.Equal(t, "u-chat", string(s.Probes[0].UID), "a probe's uid defaults to the Binding's current uid")
}

// A broker block moves only the fields it sets off DefaultBroker.
func TestDefaultBroker_ABrokerBlockMovesOnlyWhatItSets(t *testing.T) {
	f, err := scenario.Parse([]byte(strings.Replace(runnerScenario, "broker: {name: \"\", leader: true}\n", "broker: {name: b, leader: false}\n", 1)))
	require.NoError(t, err)
	s, err := bindingtest.Snapshot(f)
	require.NoError(t, err)
	want := bindingtest.DefaultBroker(f.Now.Time)
	want.Name, want.Leader = "b", false
	require.Equal(t, want, s.Broker)
}

func TestRun_Errors(t *testing.T) {
	for name, edit := range map[string][2]string{
		"bad config source": {"broker: {name: \"\", leader: true}", "broker: {configSource: etcd}"},
		"bad probe binding": {"binding: team-a/chat,", "binding: chat,"},
		"bad manifest":      {"channel: C1}", "channel: 5}"},
		"unknown own kind":  {"apiVersion: v1, kind: ConfigMap", "apiVersion: agentkourier.dev/v1alpha1, kind: Bogus"},
	} {
		t.Run(name, func(t *testing.T) {
			src := strings.Replace(runnerScenario, edit[0], edit[1], 1)
			require.NotEqual(t, runnerScenario, src)
			f, err := scenario.Parse([]byte(src))
			if err != nil {
				return // refused by the format itself
			}
			_, err = bindingtest.Run(f, false)
			require.Error(t, err)
		})
	}
}

// bindingCorpus is the binding part of the corpus; conformance's
// TestCorpus runs each of its files through Run.
const bindingCorpus = "../../conformance/scenarios/binding"

func TestScenarios_WriterFilesExist(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(bindingCorpus, "writer-*.yaml"))
	require.NoError(t, err)
	assert.GreaterOrEqual(t, len(files), 15)
	for _, p := range files {
		f, err := scenario.Load(p)
		require.NoError(t, err)
		for _, e := range f.Expect {
			assert.NotNil(t, e.Decision, "%s states no decision", p)
		}
	}
}

// A scenario whose expectation is wrong must fail, or the corpus proves
// nothing.
func TestRun_WrongDecisionFails(t *testing.T) {
	f, err := scenario.Load(filepath.Join(bindingCorpus, "writer-changed-within-gap-waits.yaml"))
	require.NoError(t, err)
	write := "write"
	f.Expect[0].Decision = &write
	res := system.Runners(bindingtest.System()).Run(f)
	assert.False(t, res.Passed())
	assert.Contains(t, res.Diff, `decision: want "write", got "wait"`)
}

func TestRun_WriterNamesUnknownBinding(t *testing.T) {
	f, err := scenario.Load(filepath.Join(bindingCorpus, "writer-unchanged-none.yaml"))
	require.NoError(t, err)
	f.Writer = &scenario.Writer{Bindings: []scenario.WriterMemory{{Binding: "team-a/ghost"}}}
	_, err = bindingtest.Run(f, false)
	assert.ErrorContains(t, err, "team-a/ghost is not a Binding")
}

// An earlier look that would write, or start a pass, is a scenario that
// hides a write: the runner refuses it rather than drop the write.
func TestRun_LookedAtThatActs_Refused(t *testing.T) {
	f, err := scenario.Load(filepath.Join(bindingCorpus, "writer-clock-stepped-back-after-a-failed-write-exactly-at.yaml"))
	require.NoError(t, err)
	f.Writer.Bindings[0].LookedAt = append(f.Writer.Bindings[0].LookedAt, f.Now)
	_, err = bindingtest.Run(f, false)
	assert.ErrorContains(t, err, "team-a/chat lookedAt[1]: the writer writes at 2026-11-30T09:53:10Z")

	f, err = scenario.Load(filepath.Join(bindingCorpus, "prober-clock-stepped-back-periodic-after-the-look-exactly-at.yaml"))
	require.NoError(t, err)
	f.Prober.LookedAt = append(f.Prober.LookedAt, metav1.NewTime(f.Now.Add(time.Second)))
	_, err = bindingtest.Run(f, false)
	assert.ErrorContains(t, err, "prober.lookedAt[1]: a pass starts at 2026-11-30T09:58:01Z")
}

func TestRun_WithoutWriterBlock_DecidesWithEmptyMemory(t *testing.T) {
	f, err := scenario.Load(filepath.Join(bindingCorpus, "ready-all-true.yaml"))
	require.NoError(t, err)
	outs, err := bindingtest.Run(f, false)
	require.NoError(t, err)
	require.Len(t, outs, 2, "the Binding and the prober")
	assert.Equal(t, "write", outs[0].Decision)
	assert.False(t, outs[0].Fight)
	assert.True(t, outs[0].WaitUntil.IsZero())
	p := outs[1]
	require.Equal(t, scenario.KindProber, p.Kind)
	assert.Equal(t, "default", p.Name)
	require.NotNil(t, p.Pass)
	assert.True(t, p.Pass.Start, "no pass has run and the broker started an hour ago")
	assert.Equal(t, []scenario.PassTarget{{Binding: "team-a/chat", Generation: 1}}, p.Pass.Targets)
}

// The prober's schedule has its own vectors: each states a pass.
func TestScenarios_ProberFilesExist(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(bindingCorpus, "prober-*.yaml"))
	require.NoError(t, err)
	assert.GreaterOrEqual(t, len(files), 15)
	for _, p := range files {
		f, err := scenario.Load(p)
		require.NoError(t, err)
		require.NotEmpty(t, f.Expect, p)
		for _, e := range f.Expect {
			assert.Equal(t, scenario.KindProber, e.Kind, p)
			assert.NotNil(t, e.Pass, "%s states no pass", p)
		}
	}
}
