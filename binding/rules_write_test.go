package binding_test

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	bt "github.com/condengine/condengine/binding/bindingtest"
	"github.com/condengine/condengine/conditions"
)

func TestNotServed_CarriesAcceptedAndReadyOnly(t *testing.T) {
	_, m := evaluate(t, world(bt.NewBinding("team-a", "chat", bt.Channel(""), bt.Conditions(ok4(1)...))))
	br := get(t, m, "team-a/chat")
	assert.Equal(t, []string{binding.TypeAccepted, binding.TypeReady}, typesOf(br), "the probe conditions are dropped")
	assert.True(t, br.Write)
}

func TestOtherBroker_BindingsLeftAlone(t *testing.T) {
	s := world(bt.NewBinding("team-a", "chat"))
	s.Connections[0].Spec.Broker = "broker-b"
	r, _ := evaluate(t, s)
	assert.Empty(t, r.Bindings, "no result, so no write")
	for _, e := range r.Memory.Objects {
		assert.NotEqual(t, akv1.KindBinding, e.Kind, "nor memory")
	}
	s.Broker.Name = "broker-b"
	_, m := evaluate(t, s)
	assert.True(t, get(t, m, "team-a/chat").Write, "its own broker writes it")
}

func TestOtherBroker_OwnerIsTheConnectionsGoodGeneration(t *testing.T) {
	s := world(bt.NewBinding("team-a", "chat"))
	c := &s.Connections[0]
	good := c.Spec
	good.Broker = "broker-b"
	c.Generation = 2
	c.Spec.Platform = "" // invalid now; generation 1 (broker-b's) runs
	s.Served.Objects = []binding.Served{{Kind: akv1.KindChatConnection, Namespace: "team-a", Name: "slack", UID: c.UID, Generation: 1, Connection: &good}}
	r, _ := evaluate(t, s)
	assert.Empty(t, r.Bindings)
}

func TestConfigMapRoute_WritesNothing(t *testing.T) {
	b := bt.NewBinding("team-a", "chat")
	s := world(b)
	s.Broker.ConfigSource = binding.ConfigSourceConfigMap
	s.Probes = []binding.ProbeResult{bt.Probe(b, 1, bt.CardOK(), bt.Joined())}
	r, _ := evaluate(t, s)
	require.Len(t, r.Bindings, 1)
	assert.False(t, r.Bindings[0].Write)
	assert.Equal(t, conditions.SkipConfigMapRoute, r.Bindings[0].Skip, "the outcome says why: the route is not the caller's secret")
	assert.True(t, r.Bindings[0].Due())

	// A standby on the ConfigMap route: the route is named first.
	s.Broker.Leader = false
	r, _ = evaluate(t, s)
	assert.Equal(t, conditions.SkipConfigMapRoute, r.Bindings[0].Skip)
}

func TestConfigMapRoute_RefusesAFileThatSetsStatus(t *testing.T) {
	file := []byte(`apiVersion: agentkourier.dev/v1alpha1
kind: Binding
metadata: {namespace: team-a, name: chat}
spec: {agent: {backendRef: {name: echo}}, chat: {connectionRef: {name: slack}, channel: C1}}
status:
  conditions: []
---
apiVersion: agentkourier.dev/v1alpha1
kind: Binding
metadata: {namespace: team-a, name: fine}
spec: {agent: {backendRef: {name: echo}}, chat: {connectionRef: {name: slack}, channel: C2}}
`)
	err := binding.ValidateConfigMapFile(file)
	require.Error(t, err)
	assert.True(t, errors.Is(err, binding.ErrStatusInFile))
	assert.Equal(t, "status: a file may not set it, remove it", binding.ErrStatusInFile.Error())
	assert.Equal(t, "document 1 (Binding team-a/chat), line 5: status: a file may not set it, remove it", err.Error())

	ok := []byte("apiVersion: agentkourier.dev/v1alpha1\nkind: Binding\nmetadata: {namespace: team-a, name: fine}\nstatus: null\n")
	assert.NoError(t, binding.ValidateConfigMapFile(ok), "a null status sets nothing")
}

func TestStandby_WritesNothing(t *testing.T) {
	s := world(bt.NewBinding("team-a", "chat"))
	s.Broker.Leader = false
	r, _ := evaluate(t, s)
	require.Len(t, r.Bindings, 1)
	assert.False(t, r.Bindings[0].Write)
	assert.Equal(t, conditions.SkipNotLeader, r.Bindings[0].Skip)
	assert.NotEmpty(t, r.Memory.Objects, "a standby still keeps the memory, ready to take over")
}

func TestStale_SnapshotBehindTheStatusWritesNothing(t *testing.T) {
	status := ok4(2)
	_, m := evaluate(t, world(bt.NewBinding("team-a", "chat", bt.Generation(1), bt.Channel(""), bt.Conditions(status...))))
	br := get(t, m, "team-a/chat")
	assert.Equal(t, conditions.SkipStale, br.Skip)
	assert.False(t, br.Write)
	assert.Equal(t, status, br.Conditions)
}

func TestStale_MemoryAheadOfTheSnapshotWritesNothing(t *testing.T) {
	b := bt.NewBinding("team-a", "chat")
	s := world(b)
	s.Served.Objects = []binding.Served{served(string(b.UID), 3, "team-a", "chat", b.Spec)}
	r, m := evaluate(t, s)
	br := get(t, m, "team-a/chat")
	assert.Equal(t, conditions.SkipStale, br.Skip)
	assert.False(t, br.Write)
	assert.NotEmpty(t, br.Errors)
	assert.EqualValues(t, 3, memoryOf(r, string(b.UID)).Generation, "the memory is kept as it was")
}

func TestForeignConditions_KeptAfterOurs(t *testing.T) {
	b := bt.NewBinding("team-a", "chat")
	status := append(ok4(1), ok4(1)[0])
	status[4].Type = "example.com/Audited"
	b.Status.Conditions = status
	s := world(b)
	s.Probes = []binding.ProbeResult{bt.Probe(b, 1, bt.CardOK(), bt.Joined())}
	_, m := evaluate(t, s)
	br := get(t, m, "team-a/chat")
	assert.False(t, br.Write)
	assert.Equal(t, conditions.SkipUnchanged, br.Skip)
	assert.Equal(t, "example.com/Audited", br.Conditions[4].Type)
	assert.Equal(t, status[:4], br.Owned, "owned: ours only, never the foreign condition")
}

func TestZeroNow_IsAnError(t *testing.T) {
	s := world(bt.NewBinding("team-a", "chat"))
	s.Now = time.Time{}
	r, err := binding.Evaluate(s)
	require.ErrorIs(t, err, conditions.ErrZeroNow)
	assert.Empty(t, r.Bindings, "nothing is decided, so nothing can be stamped with the year 1")
}
