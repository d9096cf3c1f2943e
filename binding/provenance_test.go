package binding_test

import (
	"testing"

	"pgregory.net/rapid"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/bindingtest"
	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/conditions/conditionstest"
	"github.com/condengine/condengine/conformance"
)

func ruleIDs() map[string]bool {
	ids := map[string]bool{}
	for _, r := range conformance.Rules(bindingtest.System()) {
		ids[r.ID] = true
	}
	return ids
}

// present reports whether the snapshot holds the object evidence names.
func present(s binding.Snapshot) func(conditions.ObjectRef) bool {
	type key struct{ kind, ns, name, uid string }
	have := map[key]bool{}
	for _, o := range s.Bindings {
		have[key{akv1.KindBinding, o.Namespace, o.Name, string(o.UID)}] = true
	}
	for _, o := range s.Backends {
		have[key{akv1.KindAgentBackend, o.Namespace, o.Name, string(o.UID)}] = true
	}
	for _, o := range s.Connections {
		have[key{akv1.KindChatConnection, o.Namespace, o.Name, string(o.UID)}] = true
	}
	return func(r conditions.ObjectRef) bool { return have[key{r.Kind, r.Namespace, r.Name, string(r.UID)}] }
}

// Every condition of every Binding result names a rule of the table and
// only objects of the snapshot; shuffling the lists changes no byte.
func TestProperty_ProvenanceNamesTableRulesAndSnapshotObjects(t *testing.T) {
	ids := ruleIDs()
	rapid.Check(t, func(t *rapid.T) {
		s := bindingtest.SnapshotGen().Draw(t, "snapshot")
		r := mustExplain(s)
		in := present(s)
		for _, br := range r.Bindings {
			if p := conditionstest.ProvenanceProblem(br.Conditions, br.Provenance, ids, in); p != "" {
				t.Fatalf("%s/%s: %s\n%s", br.Namespace, br.Name, p, bindingtest.Describe(r))
			}
		}
		sameWhenShuffled(t, s, r, mustExplain, "provenance")
	})
}

// Explain decides exactly what Evaluate decides; only Provenance differs.
func TestProperty_ExplainChangesNothingButProvenance(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := bindingtest.SnapshotGen().Draw(t, "snapshot")
		r := mustExplain(s)
		for i := range r.Bindings {
			if r.Bindings[i].Provenance == nil && len(r.Bindings[i].Conditions) > 0 {
				t.Fatalf("%s/%s: Explain gave no provenance", r.Bindings[i].Namespace, r.Bindings[i].Name)
			}
			r.Bindings[i].Provenance = nil
		}
		if got, want := resultJSON(t, r), resultJSON(t, mustEvaluate(s)); got != want {
			t.Fatalf("Explain decided otherwise than Evaluate:\nexplain  %s\nevaluate %s", got, want)
		}
	})
}
