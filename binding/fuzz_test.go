package binding_test

// Fuzzing: FuzzDecode checks that every refusal is a DocumentError counted
// from 1 and that what decodes evaluates within the invariants;
// FuzzEvaluate the evaluator's invariants on generated
// snapshots. Inputs over 64 KiB are skipped, so that a grown mutation
// cannot slow a target down.
//
//	go test ./binding -run '^$' -fuzz '^FuzzEvaluate$' -fuzztime 30s -fuzzminimizetime 5s
//
// -fuzzminimizetime bounds how long a failing input is shrunk.

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/bindingtest"
	"github.com/condengine/condengine/manifest"
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
		if len(data) > 64<<10 {
			t.Skip()
		}
		objs, err := binding.Decode(data)
		if err != nil {
			if strings.TrimSpace(err.Error()) == "" {
				t.Fatal("an error must say something")
			}
			des := manifest.Errors(err)
			if len(des) == 0 {
				t.Fatalf("error %v holds no DocumentError", err)
			}
			for _, de := range des {
				if de.Index < 1 {
					t.Fatalf("document counted from %d: %v", de.Index, de)
				}
			}
			return
		}
		// Whatever decodes must evaluate without a panic and within the
		// invariants.
		s := binding.Snapshot{Now: bindingtest.GenNow(), Broker: binding.Broker{Leader: true, ProberListed: true},
			Bindings: objs.Bindings, Backends: objs.Backends, Connections: objs.Connections}
		bindingtest.CheckInvariants(t, s, mustEvaluate(s))
		_ = binding.ValidateConfigMapFile(data)
	}
}

// FuzzEvaluate turns the fuzzer's bytes into whole snapshots through the
// rapid generator, so every mutation is a meaningful world.
func FuzzEvaluate(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(func(t *rapid.T) {
		s := bindingtest.SnapshotGen().Draw(t, "snapshot")
		bindingtest.CheckInvariants(t, s, mustEvaluate(s))
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
