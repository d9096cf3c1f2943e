package binding_test

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/bindingtest"
)

func FuzzDecode(f *testing.F) {
	f.Add([]byte(manifests))
	f.Add([]byte("kind: Binding\napiVersion: agentkourier.dev/v1alpha1\nspec: {chat: {channel: [1]}}"))
	f.Add([]byte("---\n---\n"))
	f.Add([]byte(`{"apiVersion":"agentkourier.dev/v1alpha1","kind":"ChatConnection","spec":{"tokenSecretRef":null}}`))
	f.Fuzz(fuzzDecodeBody)
}

func fuzzDecodeBody(t *testing.T, data []byte) {
	{
		objs, err := binding.Decode(data)
		if err != nil {
			if strings.TrimSpace(err.Error()) == "" {
				t.Fatal("an error must say something")
			}
			return
		}
		// Whatever decodes must evaluate without a panic and within the
		// invariants.
		s := binding.Snapshot{Now: bindingtest.GenNow(), Broker: binding.Broker{Leader: true, ProberListed: true},
			Bindings: objs.Bindings, Backends: objs.Backends, Connections: objs.Connections}
		bindingtest.CheckInvariants(t, s, binding.Evaluate(s))
		_ = binding.ValidateConfigMapFile(data)
	}
}

// FuzzEvaluate turns the fuzzer's bytes into whole snapshots through the
// rapid generator, so every mutation is a meaningful world.
func FuzzEvaluate(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(func(t *rapid.T) {
		s := bindingtest.SnapshotGen().Draw(t, "snapshot")
		bindingtest.CheckInvariants(t, s, binding.Evaluate(s))
	}))
}

func FuzzParseCard(f *testing.F) {
	f.Add([]byte(`{"name":"e","version":"1","url":"u"}`))
	f.Add([]byte(`{"name":"e","version":"1","supportedInterfaces":[{"url":"u","protocolBinding":"GRPC"}]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := binding.ParseCard(data)
		if err == nil && c == nil {
			t.Fatal("no card and no error")
		}
		if c != nil {
			_ = c.Problem()
		}
	})
}
