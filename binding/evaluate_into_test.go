package binding_test

import (
	"reflect"
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/bindingtest"
)

// nextSnapshot draws the snapshot a host might evaluate after s, whose
// result is in buf: a new world altogether, or s moved on by any of the
// things a host does between passes (writes landed, the memory carried
// over in buf's own array, the clock, objects gone or reordered, the
// broker's state).
func nextSnapshot(t *rapid.T, s binding.Snapshot, buf *binding.ResultBuffer) binding.Snapshot {
	switch rapid.IntRange(0, 4).Draw(t, "fresh") {
	case 0:
		return bindingtest.SnapshotGen().Draw(t, "snapshot")
	case 1:
		// Only what a pass may keep from the last one is left to notice:
		// every identity where it was, and content edited in place.
		return editKeepingPositions(t, s)
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
	if rapid.Bool().Draw(t, "edit in place") {
		next = editKeepingPositions(t, next)
	}
	return next
}

// editKeepingPositions changes what one position of each list holds
// (identity, generation, spec, memory entry, probe) and leaves every
// other position as it was: the edits an evaluation that keeps its
// indexes between passes must notice. The Bindings are edited in their
// own array or in a copy, as a host may do either.
func editKeepingPositions(t *rapid.T, s binding.Snapshot) binding.Snapshot {
	var uids []types.UID
	for _, o := range s.Bindings {
		uids = append(uids, o.UID)
	}
	for _, o := range s.Backends {
		uids = append(uids, o.UID)
	}
	uids = append(uids, "u-new", "")
	if len(s.Bindings) > 0 && rapid.Bool().Draw(t, "edit binding") {
		if rapid.Bool().Draw(t, "copy bindings") {
			s.Bindings = slices.Clone(s.Bindings)
		}
		b := &s.Bindings[rapid.IntRange(0, len(s.Bindings)-1).Draw(t, "binding")]
		switch rapid.IntRange(0, 9).Draw(t, "binding edit") {
		case 0:
			// Another Binding's channel makes a competitor.
			b.Spec.Chat.Channel = rapid.SampledFrom([]string{"C1", "C2", "", s.Bindings[0].Spec.Chat.Channel}).Draw(t, "channel")
		case 1:
			b.Spec.Agent.BackendRef.Name = rapid.SampledFrom([]string{"echo", "hub", "ghost"}).Draw(t, "backend")
		case 2:
			b.Generation = rapid.SampledFrom([]int64{-1, b.Generation + 1}).Draw(t, "generation")
		case 3:
			b.Name = rapid.SampledFrom([]string{s.Bindings[0].Name, "renamed"}).Draw(t, "name")
		case 4:
			b.UID = rapid.SampledFrom(uids).Draw(t, "uid")
		case 5:
			b.Namespace = rapid.SampledFrom(bindingtest.Namespaces()).Draw(t, "namespace")
		case 6:
			// Who holds a channel goes by creation time first.
			b.CreationTimestamp = metav1.NewTime(b.CreationTimestamp.Add(time.Duration(rapid.IntRange(-3, 3).Draw(t, "hours")) * time.Hour))
		case 7:
			b.Spec.Chat.ConnectionRef.Namespace = rapid.SampledFrom(append(bindingtest.Namespaces(), "", "Bad_NS")).Draw(t, "connection namespace")
		case 8:
			b.Spec.Agent.BackendRef.Namespace = rapid.SampledFrom(append(bindingtest.Namespaces(), "", "Bad_NS")).Draw(t, "backend namespace")
		case 9:
			// A later Binding takes an earlier one's channel, older than
			// it: the earlier one, already walked, loses its channel.
			i := rapid.IntRange(0, len(s.Bindings)-1).Draw(t, "earlier")
			for j := len(s.Bindings) - 1; j > i; j-- {
				if l := &s.Bindings[j]; l.Namespace == s.Bindings[i].Namespace {
					l.Spec.Chat = s.Bindings[i].Spec.Chat
					l.CreationTimestamp = metav1.NewTime(s.Bindings[i].CreationTimestamp.Add(-time.Hour))
					break
				}
			}
		}
	}
	if len(s.Backends) > 0 && rapid.Bool().Draw(t, "edit backend") {
		s.Backends = slices.Clone(s.Backends)
		b := &s.Backends[rapid.IntRange(0, len(s.Backends)-1).Draw(t, "backend index")]
		switch rapid.IntRange(0, 6).Draw(t, "backend edit") {
		case 0:
			b.Name = rapid.SampledFrom([]string{"echo", "hub", "ghost"}).Draw(t, "backend name")
		case 1:
			b.UID = rapid.SampledFrom(uids).Draw(t, "backend uid")
		case 2:
			b.Generation = rapid.SampledFrom([]int64{-1, b.Generation + 1}).Draw(t, "backend generation")
		case 3:
			b.Spec.URL = rapid.SampledFrom([]string{"https://a.example", "ftp://bad"}).Draw(t, "url")
		case 4:
			// The list's own array, shared with the last snapshot.
			editAllowed(t, b.Spec.AllowedNamespaces)
		case 5:
			// The Secret reference the last snapshot points at too.
			if r := b.Spec.AuthSecretRef; r != nil {
				r.Name = rapid.SampledFrom([]string{"token", "Bad_Name", ""}).Draw(t, "secret name")
			} else {
				b.Spec.AuthSecretRef = &akv1.SecretKeyRef{Name: "token", Key: "k"}
			}
		case 6:
			b.Spec.CardPath = rapid.SampledFrom([]string{"", "/card", "card"}).Draw(t, "card path")
		}
	}
	if len(s.Connections) > 0 && rapid.Bool().Draw(t, "edit connection") {
		s.Connections = slices.Clone(s.Connections)
		c := &s.Connections[rapid.IntRange(0, len(s.Connections)-1).Draw(t, "connection index")]
		switch rapid.IntRange(0, 3).Draw(t, "connection edit") {
		case 0:
			c.Spec.Platform = rapid.SampledFrom([]string{akv1.PlatformSlack, "teams"}).Draw(t, "platform")
		case 1:
			editAllowed(t, c.Spec.AllowedNamespaces)
		case 2:
			if r := c.Spec.TokenSecretRef; r != nil {
				r.Key = rapid.SampledFrom([]string{"token", ""}).Draw(t, "token key")
			} else {
				c.Spec.TokenSecretRef = &akv1.SecretKeyRef{Name: "token", Key: "k"}
			}
		case 3:
			c.Spec.Broker = rapid.SampledFrom([]string{"", "other"}).Draw(t, "broker")
		}
	}
	if len(s.Served.Objects) > 0 && rapid.Bool().Draw(t, "edit memory") {
		s.Served.Objects = slices.Clone(s.Served.Objects)
		m := &s.Served.Objects[rapid.IntRange(0, len(s.Served.Objects)-1).Draw(t, "entry")]
		switch rapid.IntRange(0, 3).Draw(t, "memory edit") {
		case 0:
			m.Generation += rapid.Int64Range(-1, 1).Draw(t, "memory generation")
		case 1:
			m.UID = rapid.SampledFrom(uids).Draw(t, "memory uid")
		case 2:
			if m.Binding != nil {
				spec := *m.Binding
				spec.Chat.Channel = rapid.SampledFrom([]string{"C1", "C2", ""}).Draw(t, "memory channel")
				m.Binding = &spec
			}
		case 3:
			m.Binding, m.Backend, m.Connection = nil, nil, nil
		}
	}
	if len(s.Probes) > 0 && rapid.Bool().Draw(t, "edit probe") {
		s.Probes = slices.Clone(s.Probes)
		p := &s.Probes[rapid.IntRange(0, len(s.Probes)-1).Draw(t, "probe")]
		if rapid.Bool().Draw(t, "probe uid") {
			p.UID = rapid.SampledFrom(uids).Draw(t, "probe to")
		} else {
			p.Generation = rapid.Int64Range(0, 3).Draw(t, "probe generation")
		}
	}
	return s
}

// editAllowed changes one entry of an allowedNamespaces list in place.
func editAllowed(t *rapid.T, list []string) {
	if len(list) > 0 {
		list[rapid.IntRange(0, len(list)-1).Draw(t, "allowed entry")] = rapid.SampledFrom(append(bindingtest.Namespaces(), "*", "Bad_NS")).Draw(t, "allowed")
	}
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
