package binding_test

import (
	"errors"
	"testing"

	"pgregory.net/rapid"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/bindingtest"
	"github.com/condengine/condengine/conditions"
)

// EvaluateEach hands on exactly Evaluate's outcomes, in Evaluate's
// order, each with the position of its own Binding, and returns the rest
// of Evaluate's result unchanged.
func TestProperty_EvaluateEachIsEvaluate(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := bindingtest.SnapshotGen().Draw(t, "snapshot")
		want := mustEvaluate(s)
		got := []binding.Outcome{} // Evaluate's list is never nil
		rest, err := binding.EvaluateEach(s, func(i int, o binding.Outcome) {
			b := &s.Bindings[i]
			if b.Namespace != o.Namespace || b.Name != o.Name || b.UID != o.UID {
				t.Fatalf("outcome %s/%s %s handed with position %d, which holds %s/%s %s",
					o.Namespace, o.Name, o.UID, i, b.Namespace, b.Name, b.UID)
			}
			got = append(got, o)
		})
		if err != nil {
			t.Fatal(err)
		}
		if rest.Bindings != nil {
			t.Fatalf("EvaluateEach returned %d outcomes in Result.Bindings", len(rest.Bindings))
		}
		rest.Bindings = got
		if w, g := resultJSON(t, want), resultJSON(t, rest); w != g {
			t.Fatalf("EvaluateEach differs from Evaluate:\nwant %s\ngot  %s", w, g)
		}
	})
}

func TestEvaluateEach_ZeroNowAndNilEach(t *testing.T) {
	s := bindingtest.SnapshotGen().Example(1)
	if _, err := binding.EvaluateEach(binding.Snapshot{}, func(int, binding.Outcome) { t.Fatal("called") }); !errors.Is(err, conditions.ErrZeroNow) {
		t.Fatalf("zero Now: got %v, want ErrZeroNow", err)
	}
	want := mustEvaluate(s)
	want.Bindings = nil
	got, err := binding.EvaluateEach(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	if w, g := resultJSON(t, want), resultJSON(t, got); w != g {
		t.Fatalf("nil each: want %s\ngot  %s", w, g)
	}
}
