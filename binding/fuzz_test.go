package binding_test

// Fuzzing: FuzzDecode checks that every refusal is a DocumentError counted
// from 1 and that what decodes evaluates within the invariants;
// FuzzRunScenario that a scenario evaluates to the same outcomes twice
// (and in any order of its objects) and that every message obeys the
// message rule; FuzzEvaluate the evaluator's invariants on generated
// snapshots. Inputs over 64 KiB are skipped, so that a grown mutation
// cannot slow a target down.
//
//	go test ./binding -run '^$' -fuzz '^FuzzRunScenario$' -fuzztime 30s -fuzzminimizetime 5s
//
// -fuzzminimizetime bounds how long a failing input is shrunk.

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/bindingtest"
	"github.com/condengine/condengine/manifest"
	"github.com/condengine/condengine/redact"
	"github.com/condengine/condengine/scenario"
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

// FuzzRunScenario feeds scenario files (the corpus as seeds) through the
// runner: a bad file is an error, never a panic.
func FuzzRunScenario(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join(scenarioDir, "*.yaml"))
	for _, p := range paths {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 64<<10 {
			t.Skip()
		}
		sf, err := scenario.Parse(data)
		if err != nil || sf.System != scenario.SystemBinding {
			return
		}
		outs, err := binding.RunScenario(sf)
		if err != nil {
			return
		}
		// The same scenario with its objects in reverse order gives the
		// same outcomes (compared by object, since the runner lists them
		// in input order): evaluation is deterministic and order-free.
		slices.Reverse(sf.Objects)
		again, err := binding.RunScenario(sf)
		if err != nil {
			t.Fatalf("refused once objects are reversed: %v", err)
		}
		byName := func(a, b scenario.Outcome) int {
			return strings.Compare(a.Kind+"/"+a.Namespace+"/"+a.Name, b.Kind+"/"+b.Namespace+"/"+b.Name)
		}
		slices.SortStableFunc(outs, byName)
		slices.SortStableFunc(again, byName)
		if d := cmp.Diff(outs, again); d != "" {
			t.Fatalf("outcomes depend on the order of objects:\n%s", d)
		}
		for _, o := range outs {
			for _, c := range o.Conditions {
				if err := redact.Check(c.Message, 0); err != nil {
					t.Fatalf("%s %s/%s %s: %v", o.Kind, o.Namespace, o.Name, c.Type, err)
				}
			}
		}
	})
}
