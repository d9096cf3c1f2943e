package binding_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/condengine/condengine/binding"
)

const manifests = `# three kinds and a stranger
apiVersion: agentkourier.dev/v1alpha1
kind: AgentBackend
metadata: {namespace: team-a, name: echo, uid: u-e, generation: 2}
spec:
  url: https://echo.team-a.svc
  allowedNamespaces: ["*"]
  somethingNew: kept by the schema, ignored here
---
apiVersion: agentkourier.dev/v1alpha1
kind: ChatConnection
metadata: {namespace: team-a, name: slack}
spec: {platform: slack, tokenSecretRef: {name: t, key: k}, broker: b2}
---
---
apiVersion: v1
kind: ConfigMap
metadata: {name: x}
---
{"apiVersion": "agentkourier.dev/v1alpha1", "kind": "Binding",
 "metadata": {"namespace": "team-a", "name": "chat", "creationTimestamp": "2026-11-30T09:00:00Z"},
 "spec": {"agent": {"backendRef": {"name": "echo"}}, "chat": {"connectionRef": {"name": "slack"}, "channel": "C1"}},
 "status": {"conditions": [{"type": "Ready", "status": "True", "reason": "OK", "message": "", "lastTransitionTime": "2026-11-30T09:10:00Z"}]}}
`

func TestDecode_ReadsAStreamOfTheThreeKinds(t *testing.T) {
	objs, err := binding.Decode([]byte(manifests))
	require.NoError(t, err)
	require.Len(t, objs.Backends, 1)
	require.Len(t, objs.Connections, 1)
	require.Len(t, objs.Bindings, 1)
	assert.Equal(t, 1, objs.Skipped)
	assert.Equal(t, []string{"*"}, objs.Backends[0].Spec.AllowedNamespaces)
	assert.EqualValues(t, 2, objs.Backends[0].Generation)
	assert.Equal(t, "b2", objs.Connections[0].Spec.Broker)
	assert.Equal(t, "C1", objs.Bindings[0].Spec.Chat.Channel)
	require.Len(t, objs.Bindings[0].Status.Conditions, 1)
}

func TestDecode_ErrorsNameTheDocumentAndTheField(t *testing.T) {
	cases := map[string]struct{ in, want string }{
		"wrong type": {"apiVersion: agentkourier.dev/v1alpha1\nkind: Binding\nmetadata: {namespace: a, name: b}\nspec: {chat: {channel: 5}}\n",
			"document 0 (Binding a/b): spec.chat.channel: a JSON number cannot be a string"},
		"unknown kind of our group": {"apiVersion: agentkourier.dev/v1alpha1\nkind: Bond\nmetadata: {name: b}\n",
			`document 0 (Bond b): kind: "Bond" is not a kind of agentkourier.dev (want Binding, AgentBackend or ChatConnection)`},
		"wrong version": {"apiVersion: agentkourier.dev/v2\nkind: Binding\n",
			`document 0 (Binding): apiVersion: "agentkourier.dev/v2" is not served; use agentkourier.dev/v1alpha1`},
		"no kind":           {"apiVersion: v1\nmetadata: {name: x}\n", "document 0: kind: required"},
		"no apiVersion":     {"kind: Binding\n", "document 0 (Binding): apiVersion: required"},
		"not an object":     {"- a\n- b\n", "document 0: a manifest must be an object"},
		"kind not a string": {"kind: [1]\n", "document 0: kind: must be a string"},
		"second document": {"apiVersion: v1\nkind: ConfigMap\n---\napiVersion: agentkourier.dev/v1alpha1\nkind: AgentBackend\nmetadata: {name: e}\nspec: {allowedNamespaces: a}\n",
			"document 1 (AgentBackend e): spec.allowedNamespaces: a JSON string cannot be a []string"},
		"bad time": {"apiVersion: agentkourier.dev/v1alpha1\nkind: Binding\nmetadata: {name: b, creationTimestamp: yesterday}\n", "document 0 (Binding b): "},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := binding.Decode([]byte(tc.in))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestDecodeObjects_ReportsEveryBadDocument(t *testing.T) {
	_, err := binding.DecodeObjects([]json.RawMessage{
		json.RawMessage(`{"apiVersion":"agentkourier.dev/v1alpha1","kind":"Nope"}`),
		json.RawMessage(`{"apiVersion":"agentkourier.dev/v1alpha1","kind":"Binding","spec":{"agent":1}}`),
		json.RawMessage(`null`),
	})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "document 0")
	assert.Contains(t, err.Error(), "document 1")
	assert.Contains(t, err.Error(), "document 2")
}
