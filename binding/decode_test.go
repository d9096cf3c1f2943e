package binding_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/manifest"
)

const manifests = `# three kinds and a stranger
apiVersion: agentkourier.dev/v1alpha1
kind: AgentBackend
metadata: {namespace: team-a, name: echo, uid: u-e, generation: 2}
spec:
  url: https://echo.team-a.svc
  allowedNamespaces: ["*"]
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
			"document 1 (Binding a/b), line 4: spec.chat.channel: must be a string, not the number 5"},
		"unknown kind of our group": {"apiVersion: agentkourier.dev/v1alpha1\nkind: Bond\nmetadata: {name: b}\n",
			`document 1 (Bond b), line 2: kind: "Bond" is not a kind of agentkourier.dev (want Binding, AgentBackend or ChatConnection)`},
		"wrong version": {"apiVersion: agentkourier.dev/v2\nkind: Binding\n",
			`document 1 (Binding), line 1: apiVersion: "agentkourier.dev/v2" is not served; use agentkourier.dev/v1alpha1`},
		"no kind":           {"apiVersion: v1\nmetadata: {name: x}\n", "document 1, line 1: kind: required"},
		"no apiVersion":     {"kind: Binding\n", "document 1 (Binding), line 1: apiVersion: required"},
		"not an object":     {"- a\n- b\n", "document 1, line 1: a manifest must be an object"},
		"kind not a string": {"kind: [1]\n", "document 1, line 1: kind: must be a string"},
		"second document": {"apiVersion: v1\nkind: ConfigMap\n---\napiVersion: agentkourier.dev/v1alpha1\nkind: AgentBackend\nmetadata: {name: e}\nspec: {allowedNamespaces: a}\n",
			"document 2 (AgentBackend e), line 7: spec.allowedNamespaces: must be a list, not \"a\""},
		"bad time": {"apiVersion: agentkourier.dev/v1alpha1\nkind: Binding\nmetadata: {name: b, creationTimestamp: yesterday}\n", "document 1 (Binding b), line 3: metadata.creationTimestamp: must be a time in RFC 3339 form, such as 2026-11-30T10:00:00Z, not \"yesterday\""},
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
		json.RawMessage(`{"apiVersion":"agentkourier.dev/v2","kind":"Binding","metadata":{"name":"b"}}`),
	})
	require.Error(t, err)
	des := manifest.Errors(err)
	require.Len(t, des, 3, "the null document is passed over, as an empty one in a stream is")
	for i, de := range des {
		assert.Equal(t, []int{1, 2, 4}[i], de.Index, "documents count from 1, the passed-over one included")
	}
}

// decodeError decodes in and returns its one DocumentError.
func decodeError(t *testing.T, in string) *manifest.DocumentError {
	t.Helper()
	_, err := binding.Decode([]byte(in))
	require.Error(t, err)
	des := manifest.Errors(err)
	require.Len(t, des, 1, "%v", err)
	return des[0]
}

func TestDecode_UnknownFieldIsAnErrorNamingFieldDocumentAndLine(t *testing.T) {
	de := decodeError(t, `apiVersion: v1
kind: ConfigMap
metadata: {name: x}
---
apiVersion: agentkourier.dev/v1alpha1
kind: Binding
metadata:
  namespace: team-a
  name: chat
spec:
  agent:
    backendRef: {name: echo}
  chat:
    connectionRef: {name: slack}
    chanel: C1
`)
	assert.Equal(t, 2, de.Index)
	assert.Equal(t, 15, de.Line, "the line of the misspelt key in the whole stream")
	assert.Equal(t, "Binding", de.Kind)
	assert.Equal(t, "document 2 (Binding team-a/chat), line 15: spec.chat.chanel: unknown field", de.Error())
}

func TestDecode_UnknownFieldInJSONAndInAList(t *testing.T) {
	de := decodeError(t, "{\"apiVersion\": \"agentkourier.dev/v1alpha1\", \"kind\": \"AgentBackend\",\n \"metadata\": {\"name\": \"e\"},\n \"spec\": {\"ur1\": \"x\"}}\n")
	assert.Equal(t, "document 1 (AgentBackend e), line 3: spec.ur1: unknown field", de.Error())

	de = decodeError(t, `apiVersion: v1
kind: List
items:
- apiVersion: agentkourier.dev/v1alpha1
  kind: ChatConnection
  metadata: {name: a}
- apiVersion: agentkourier.dev/v1alpha1
  kind: ChatConnection
  metadata: {name: b, labelz: {}}
`)
	assert.Equal(t, "items[1]", de.Item)
	assert.Equal(t, 9, de.Line)
	assert.Contains(t, de.Error(), "metadata.labelz: unknown field")
}

func TestDecode_MisspeltKindIsAnError(t *testing.T) {
	de := decodeError(t, "apiVersion: agentkourier.dev/v1alpha1\nkind: Bindng\nmetadata: {name: b}\n")
	assert.Equal(t, 2, de.Line)
	assert.Contains(t, de.Error(), `kind: "Bindng" is not a kind of agentkourier.dev`)
}

func TestDecode_ExpandsAListOfBindings(t *testing.T) {
	objs, err := binding.Decode([]byte(`apiVersion: agentkourier.dev/v1alpha1
kind: BindingList
items:
- apiVersion: agentkourier.dev/v1alpha1
  kind: Binding
  metadata: {namespace: a, name: one}
- apiVersion: agentkourier.dev/v1alpha1
  kind: Binding
  metadata: {namespace: a, name: two}
`))
	require.NoError(t, err)
	require.Len(t, objs.Bindings, 2)
	assert.Equal(t, "one", objs.Bindings[0].Name)
	assert.Equal(t, "two", objs.Bindings[1].Name)
}

func TestDecode_ExpandsNestedLists(t *testing.T) {
	objs, err := binding.Decode([]byte(`{"apiVersion": "v1", "kind": "List", "items": [
  {"apiVersion": "v1", "kind": "List", "items": [
    {"apiVersion": "agentkourier.dev/v1alpha1", "kind": "Binding", "metadata": {"name": "inner"}}]},
  {"apiVersion": "agentkourier.dev/v1alpha1", "kind": "AgentBackend", "metadata": {"name": "outer"}}]}`))
	require.NoError(t, err)
	require.Len(t, objs.Bindings, 1)
	assert.Equal(t, "inner", objs.Bindings[0].Name)
	require.Len(t, objs.Backends, 1)

	de := decodeError(t, `{"apiVersion": "v1", "kind": "List", "items": [
  {"apiVersion": "v1", "kind": "List", "items": [
    {"apiVersion": "agentkourier.dev/v1alpha1", "kind": "Binding", "metadata": {"name": "inner"}, "spek": {}}]}]}`)
	assert.Equal(t, "items[0].items[0]", de.Item)
	assert.Equal(t, 3, de.Line)
	assert.Contains(t, de.Error(), "spek: unknown field")
}

func TestDecode_ASecondObjectOfTheSameNameIsAnError(t *testing.T) {
	de := decodeError(t, `apiVersion: agentkourier.dev/v1alpha1
kind: Binding
metadata: {namespace: a, name: b}
---
apiVersion: agentkourier.dev/v1alpha1
kind: Binding
metadata: {namespace: a, name: b}
`)
	assert.Equal(t, 2, de.Index)
	assert.Equal(t, 7, de.Line)
	assert.Contains(t, de.Error(), "listed again (first in document 1, line 1)")
}

func TestDefaultIdentity_FillsOnlyWhatIsMissing(t *testing.T) {
	objs, err := binding.Decode([]byte(`apiVersion: agentkourier.dev/v1alpha1
kind: Binding
metadata: {namespace: team-a, name: chat}
spec: {agent: {backendRef: {name: echo}}, chat: {connectionRef: {name: slack}, channel: C1}}
---
apiVersion: agentkourier.dev/v1alpha1
kind: AgentBackend
metadata: {namespace: team-a, name: echo, uid: u-e, generation: 3}
spec: {url: "https://e"}
---
apiVersion: agentkourier.dev/v1alpha1
kind: ChatConnection
metadata: {namespace: team-a, name: slack, generation: 2}
spec: {platform: slack, tokenSecretRef: {name: t, key: k}}
`))
	require.NoError(t, err)
	again := binding.Objects{Bindings: slices.Clone(objs.Bindings), Backends: slices.Clone(objs.Backends), Connections: slices.Clone(objs.Connections)}
	objs.DefaultIdentity()
	b, e, c := objs.Bindings[0], objs.Backends[0], objs.Connections[0]
	assert.Equal(t, "manifest:Binding:team-a/chat", string(b.UID))
	assert.Equal(t, int64(1), b.Generation)
	assert.Equal(t, "u-e", string(e.UID), "a uid the manifest sets is kept")
	assert.Equal(t, int64(3), e.Generation, "so is a generation")
	assert.Equal(t, "manifest:ChatConnection:team-a/slack", string(c.UID), "the kind is part of the uid")
	assert.Equal(t, int64(2), c.Generation)

	again.DefaultIdentity()
	assert.Equal(t, objs, again, "the same input gives the same identities")
	objs.DefaultIdentity()
	assert.Equal(t, again, objs, "a second call changes nothing")
}
