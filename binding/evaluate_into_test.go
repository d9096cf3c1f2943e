package binding_test

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/bindingtest"
)

// nextSnapshot draws the snapshot a host might evaluate after s, whose
// result is in buf: a new world altogether, or s moved on by any of the
// things a host does between passes (writes landed, the memory carried
// over in buf's own array, the clock, objects gone or reordered, the
// broker's state).
func nextSnapshot(t *rapid.T, s binding.Snapshot, buf *binding.ResultBuffer) binding.Snapshot {
	if rapid.IntRange(0, 4).Draw(t, "fresh") == 0 {
		return bindingtest.SnapshotGen().Draw(t, "snapshot")
	}
	next := s
	if rapid.Bool().Draw(t, "land") {
		next = landed(next, buf.Result)
	}
	if rapid.Bool().Draw(t, "carry memory") {
		next.Served = buf.Memory
	}
	if rapid.Bool().Draw(t, "tick") {
		next.Now = next.Now.Add(time.Duration(rapid.IntRange(1, 3600).Draw(t, "seconds")) * time.Second)
	}
	if len(next.Bindings) > 0 && rapid.Bool().Draw(t, "drop binding") {
		i := rapid.IntRange(0, len(next.Bindings)-1).Draw(t, "dropped")
		next.Bindings = slices.Delete(slices.Clone(next.Bindings), i, i+1)
	}
	if len(next.Probes) > 0 && rapid.Bool().Draw(t, "drop probe") {
		next.Probes = next.Probes[1:]
	}
	if rapid.Bool().Draw(t, "reorder") {
		next.Bindings = shuffle(t, "bindings", next.Bindings)
		next.Connections = shuffle(t, "connections", next.Connections)
	}
	if rapid.Bool().Draw(t, "flip leader") {
		next.Broker.Leader = !next.Broker.Leader
	}
	return next
}

// TestProperty_EvaluateIntoEqualsEvaluate evaluates a sequence of
// snapshots into one ResultBuffer and holds each result to Evaluate's,
// nil lists included, and holds the ownership rule: the condition lists
// of a result handed out earlier, and the memory the snapshot reads, are
// not written over by the next call.
func TestProperty_EvaluateIntoEqualsEvaluate(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var buf binding.ResultBuffer
		s := bindingtest.SnapshotGen().Draw(t, "snapshot")
		steps := rapid.IntRange(1, 6).Draw(t, "steps")
		var earlier []binding.Outcome // the last result's outcomes, copied
		var earlierJSON string        // and their condition lists as they were
		for k := range steps {
			if k > 0 {
				s = nextSnapshot(t, s, &buf)
			}
			want := mustEvaluate(s)
			servedJSON := memoryJSON(t, s.Served)
			if err := binding.EvaluateInto(&buf, s); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(buf.Result, want) {
				t.Fatalf("pass %d: EvaluateInto differs from Evaluate:\nwant %s\ngot  %s", k, resultJSON(t, want), resultJSON(t, buf.Result))
			}
			if got := memoryJSON(t, s.Served); got != servedJSON {
				t.Fatalf("pass %d: the snapshot's memory was written over:\nwas %s\nnow %s", k, servedJSON, got)
			}
			if got := resultJSON(t, binding.Result{Bindings: earlier}); k > 0 && got != earlierJSON {
				t.Fatalf("pass %d: an earlier result's condition lists were written over:\nwas %s\nnow %s", k, earlierJSON, got)
			}
			earlier = slices.Clone(buf.Bindings)
			earlierJSON = resultJSON(t, binding.Result{Bindings: earlier})
		}
	})
}

func TestEvaluateInto_RefusesZeroNowAndKeepsTheBuffer(t *testing.T) {
	s := benchWorld(10, false)
	var buf binding.ResultBuffer
	if err := binding.EvaluateInto(&buf, s); err != nil {
		t.Fatal(err)
	}
	before := resultJSON(t, buf.Result)
	s.Now = time.Time{}
	if err := binding.EvaluateInto(&buf, s); err == nil {
		t.Fatal("a zero Now was accepted")
	}
	if got := resultJSON(t, buf.Result); got != before {
		t.Fatalf("a refused call changed the buffer:\nwas %s\nnow %s", before, got)
	}
}

// TestEvaluateInto_UnchangedPassAllocatesAlmostNothing holds the reuse
// without a benchmark run: a second pass over the same 2,000 Bindings,
// the memory carried over as a host does, allocates less than 100 bytes
// per Binding.
func TestEvaluateInto_UnchangedPassAllocatesAlmostNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a world of 2,000 Bindings")
	}
	const n = 2_000
	s := benchWorld(n, true)
	s = binding.Apply(s, mustEvaluate(s))
	var buf binding.ResultBuffer
	warmUp(t, &buf, &s)
	var before, after runtimeMem
	before.read()
	for range 3 {
		s.Served = buf.Memory
		if err := binding.EvaluateInto(&buf, s); err != nil {
			t.Fatal(err)
		}
	}
	after.read()
	if perBinding := float64(after.bytes-before.bytes) / 3 / n; perBinding > 100 {
		t.Fatalf("an unchanged pass allocated %.0f B per Binding, want at most 100", perBinding)
	}
}
