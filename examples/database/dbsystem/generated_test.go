package dbsystem_test

import (
	"encoding/json"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/conditions/conditionstest"
	"github.com/condengine/condengine/conformance"
	"github.com/condengine/condengine/examples/database/dbsystem"
	"github.com/condengine/condengine/redact"
)

// On every drawn snapshot, what Run writes is valid for the vocabulary
// at the object's generation, every message is already clean (no
// address, credential or second line: the driver's errors went through
// redact), and the explanation names one rule of the table per
// condition, with evidence only of objects in the snapshot.
func TestRun_GeneratedSnapshots(t *testing.T) {
	sys := dbsystem.System()
	ids := map[string]bool{}
	for _, r := range conformance.Rules(sys) {
		ids[r.ID] = true
	}
	for seed := range 1000 {
		f, err := dbsystem.Generate(seed)
		if err != nil {
			t.Fatal(err)
		}
		present := map[conditions.ObjectRef]bool{}
		gens := map[string]int64{}
		for _, raw := range f.Objects {
			var m metav1.PartialObjectMetadata
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatal(err)
			}
			present[conditions.ObjectRef{Kind: m.Kind, Namespace: m.Namespace, Name: m.Name}] = true
			gens[m.Namespace+"/"+m.Name] = m.Generation
		}
		outs, err := sys.Run(f, true)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for _, o := range outs {
			if o.Write {
				if errs := dbsystem.Vocabulary.Validate(o.Conditions, gens[o.Namespace+"/"+o.Name], nil); len(errs) > 0 {
					t.Fatalf("seed %d: %s %s: %v", seed, o.Kind, o.Name, errs.ToAggregate())
				}
			}
			for _, c := range o.Computed {
				if !redact.Clean(c.Message) {
					t.Fatalf("seed %d: %s %s: %s message %q is not clean", seed, o.Kind, o.Name, c.Type, c.Message)
				}
			}
			if p := conditionstest.ProvenanceProblem(o.Computed, o.Provenance, ids, func(r conditions.ObjectRef) bool {
				return present[conditions.ObjectRef{Kind: r.Kind, Namespace: r.Namespace, Name: r.Name}]
			}); p != "" {
				t.Fatalf("seed %d: %s %s: %s", seed, o.Kind, o.Name, p)
			}
		}
	}
}
