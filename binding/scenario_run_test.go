package binding_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/scenario"
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

func TestRunScenario_MapsTheFileAndTheResult(t *testing.T) {
	f, err := scenario.Parse([]byte(runnerScenario))
	require.NoError(t, err)
	out, err := binding.RunScenario(f)
	require.NoError(t, err)
	require.Len(t, out, 1, "only Bindings get an outcome")
	o := out[0]
	require.Equal(t, "team-a/chat", o.Namespace+"/"+o.Name)
	require.True(t, o.Write)
	require.Len(t, o.Conditions, 4)
	var st binding.Status
	require.NoError(t, json.Unmarshal(o.Status, &st))
	require.Len(t, st.Conditions, 4, "status carries the written conditions")
	require.Empty(t, f.Check(out))
}

func TestRunScenario_WrongExpectationFails(t *testing.T) {
	bad := strings.Replace(runnerScenario, "reason: NotInChannel", "reason: ChannelArchived", 1)
	f, err := scenario.Parse([]byte(bad))
	require.NoError(t, err)
	r := scenario.Runners{scenario.SystemBinding: binding.RunScenario}.Run(f)
	require.False(t, r.Passed())
	require.Contains(t, r.Diff, "ChannelArchived")
}

func TestRunScenario_Defaults(t *testing.T) {
	f, err := scenario.Parse([]byte(strings.Replace(runnerScenario, "broker: {name: \"\", leader: true}\n", "", 1)))
	require.NoError(t, err)
	s, err := binding.SnapshotFromScenario(f)
	require.NoError(t, err)
	require.True(t, s.Broker.Leader)
	require.True(t, s.Broker.ProberListed)
	require.Equal(t, binding.ConfigSourceCRDs, s.Broker.ConfigSource)
	require.Equal(t, f.Now.Add(-3600e9), s.Broker.StartedAt)
	require.Len(t, s.Probes, 1)
	require.Equal(t, "u-chat", string(s.Probes[0].UID), "a probe's uid defaults to the Binding's current uid")
}

func TestRunScenario_Errors(t *testing.T) {
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
			_, err = binding.RunScenario(f)
			require.Error(t, err)
		})
	}
}
