package binding_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/validation"
	"pgregory.net/rapid"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/bindingtest"
	"github.com/condengine/condengine/conditions"
)

func resultJSON(t interface{ Fatalf(string, ...any) }, r binding.Result) string {
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return string(b)
}

func memoryJSON(t interface{ Fatalf(string, ...any) }, m binding.ServedMemory) string {
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return string(b)
}

func shuffle[T any](t *rapid.T, label string, xs []T) []T {
	return rapid.Permutation(xs).Draw(t, label)
}

// sameWhenShuffled fails t unless eval, given s with every list drawn in
// another order, gives the bytes of want, its result for s as it is.
func sameWhenShuffled(t *rapid.T, s binding.Snapshot, want binding.Result, eval func(binding.Snapshot) binding.Result, what string) {
	p := s
	p.Bindings = shuffle(t, "bindings", s.Bindings)
	p.Backends = shuffle(t, "backends", s.Backends)
	p.Connections = shuffle(t, "connections", s.Connections)
	p.Served.Objects = shuffle(t, "served", s.Served.Objects)
	p.Probes = shuffle(t, "probes", s.Probes)
	w := resultJSON(t, want)
	if got := resultJSON(t, eval(p)); got != w {
		t.Fatalf("shuffled input gave other %s:\nwant %s\ngot  %s", what, w, got)
	}
}

func TestProperty_OrderIndependence(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := bindingtest.SnapshotGen().Draw(t, "snapshot")
		sameWhenShuffled(t, s, mustEvaluate(s), mustEvaluate, "bytes")
	})
}

// landed is s after every due write landed, whether this replica makes
// it or not (a standby's, the ConfigMap route's): what the next snapshot
// holds once some leader has written.
func landed(s binding.Snapshot, r binding.Result) binding.Snapshot {
	r.Bindings = slices.Clone(r.Bindings)
	for i := range r.Bindings {
		r.Bindings[i].Write = r.Bindings[i].Due()
	}
	return binding.Apply(s, r)
}

func TestProperty_Idempotence(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := bindingtest.SnapshotGen().Draw(t, "snapshot")
		r1 := mustEvaluate(s)
		s2 := landed(s, r1)
		s2.Now = s.Now.Add(time.Hour)
		r2 := mustEvaluate(s2)
		if len(r1.Bindings) != len(r2.Bindings) {
			t.Fatalf("result count moved from %d to %d", len(r1.Bindings), len(r2.Bindings))
		}
		for i := range r2.Bindings {
			a, b := &r1.Bindings[i], &r2.Bindings[i]
			if b.Write {
				t.Fatalf("%s/%s: a second evaluation wants a write:\n%s\nthen\n%s", b.Namespace, b.Name,
					bindingtest.Describe(r1), bindingtest.Describe(r2))
			}
			if a.Skip != conditions.SkipStale && !conditions.Equal(a.Conditions, b.Conditions) {
				t.Fatalf("%s/%s: conditions moved:\n%s\nthen\n%s", b.Namespace, b.Name, bindingtest.Describe(r1), bindingtest.Describe(r2))
			}
		}
	})
}

// TestProperty_Settles plays each result back as the objects' status and
// the broker's memory, and checks that the world stops changing: a claim
// dropped or a generation newly served may move other Bindings once, but
// never for ever.
func TestProperty_Settles(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := bindingtest.SnapshotGen().Draw(t, "snapshot")
		var r binding.Result
		for round := range len(s.Bindings) + 3 {
			r = mustEvaluate(s)
			writes := 0
			for _, br := range r.Bindings {
				if br.Due() {
					writes++
				}
			}
			if writes == 0 && round > 0 && memoryJSON(t, r.Memory) == memoryJSON(t, s.Served) {
				return
			}
			s = landed(s, r)
			s.Served = r.Memory
			s.Now = s.Now.Add(time.Minute)
		}
		t.Fatalf("still changing after %d rounds:\n%s", len(s.Bindings)+3, bindingtest.Describe(r))
	})
}

func TestProperty_Invariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := bindingtest.SnapshotGen().Draw(t, "snapshot")
		r := mustEvaluate(s)
		bindingtest.CheckInvariants(t, s, r)
	})
}

// TestProperty_NoLeaks plants a canary per namespace in the texts of its
// objects and another in every probe error, then searches every message
// of every Binding.
func TestProperty_NoLeaks(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := bindingtest.SnapshotGen().Draw(t, "snapshot")
		r := mustEvaluate(s)
		for _, br := range r.Bindings {
			for _, c := range br.Conditions {
				if !binding.Vocabulary.Has(c.Type) {
					continue
				}
				if strings.Contains(c.Message, bindingtest.ProbeCanary) {
					t.Fatalf("%s/%s %s shows a probe's raw text: %q", br.Namespace, br.Name, c.Type, c.Message)
				}
				for _, ns := range bindingtest.Namespaces() {
					if ns != br.Namespace && strings.Contains(c.Message, bindingtest.Canary(ns)) {
						t.Fatalf("%s/%s %s shows text of namespace %s: %q", br.Namespace, br.Name, c.Type, ns, c.Message)
					}
				}
			}
		}
	})
}

// TestProperty_NamespaceNotAllowedSameForValidAndInvalid breaks every
// object of one namespace and checks that what Bindings elsewhere read
// about the objects that do not allow them does not move.
func TestProperty_NamespaceNotAllowedSameForValidAndInvalid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := bindingtest.SnapshotGen().Draw(t, "snapshot")
		x := rapid.SampledFrom(bindingtest.Namespaces()).Draw(t, "broken")
		s.Served = binding.ServedMemory{}
		broken := s
		broken.Backends = append([]akv1.AgentBackend(nil), s.Backends...)
		for i := range broken.Backends {
			if broken.Backends[i].Namespace == x {
				broken.Backends[i].Spec.URL = ""
				broken.Backends[i].Spec.CardPath = "no-slash"
			}
		}
		broken.Connections = append([]akv1.ChatConnection(nil), s.Connections...)
		for i := range broken.Connections {
			if broken.Connections[i].Namespace == x {
				broken.Connections[i].Spec.Platform = "irc"
			}
		}
		a, b := mustEvaluate(s), mustEvaluate(broken)
		denials := func(br binding.Outcome) []string {
			c := conditions.Find(br.Conditions, binding.TypeAccepted)
			if c == nil || br.Skip == conditions.SkipStale {
				return nil
			}
			var out []string
			for _, p := range strings.Split(c.Message, "; ") {
				if strings.Contains(p, "does not allow namespace") {
					out = append(out, p)
				}
			}
			return out
		}
		for i := range a.Bindings {
			if a.Bindings[i].Namespace == x {
				continue
			}
			da, db := denials(a.Bindings[i]), denials(b.Bindings[i])
			if strings.Join(da, "|") != strings.Join(db, "|") {
				t.Fatalf("%s/%s: valid objects read %q, broken ones %q", a.Bindings[i].Namespace, a.Bindings[i].Name, da, db)
			}
		}
	})
}

// TestProperty_NoLeakAndOwnTextExact plants, besides the canaries of
// another namespace and of probe output that no message may show, own text
// of the Binding that redaction would hide if it saw it: a backendRef name
// of 40 hex digits (which names nothing, so BackendNotFound quotes it) and a
// channel holding 32 hex digits and a space (InvalidSpec quotes it). Every
// message must show no canary, and must show the planted own text exactly:
// over-redaction is a defect too.
func TestProperty_NoLeakAndOwnTextExact(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := bindingtest.SnapshotGen().Draw(t, "snapshot")
		hexRef := map[int]bool{}
		hexChannel := map[int]bool{}
		for i := range s.Bindings {
			b := &s.Bindings[i]
			if rapid.Bool().Draw(t, "plantRef") {
				b.Spec.Agent.BackendRef.Name = hexRun(t, 40)
				hexRef[i] = true
			}
			if rapid.Bool().Draw(t, "plantChannel") {
				b.Spec.Chat.Channel = "C " + hexRun(t, 32)
				hexChannel[i] = true
			}
		}
		r := mustEvaluate(s)
		bindingtest.CheckInvariants(t, s, r)
		byUID := map[string]int{}
		for i := range s.Bindings {
			byUID[string(s.Bindings[i].UID)] = i
		}
		for _, br := range r.Bindings {
			id := br.Namespace + "/" + br.Name
			for _, c := range br.Conditions {
				if !binding.Vocabulary.Has(c.Type) {
					continue
				}
				if strings.Contains(c.Message, bindingtest.ProbeCanary) {
					t.Fatalf("%s %s shows a probe's raw text: %q", id, c.Type, c.Message)
				}
				for _, ns := range bindingtest.Namespaces() {
					if ns != br.Namespace && strings.Contains(c.Message, bindingtest.Canary(ns)) {
						t.Fatalf("%s %s shows text of namespace %s: %q", id, c.Type, ns, c.Message)
					}
				}
			}
			i, ok := byUID[string(br.UID)]
			if !ok || br.Skip == conditions.SkipStale {
				continue
			}
			b := &s.Bindings[i]
			acc := conditions.Find(br.Conditions, binding.TypeAccepted)
			if acc == nil {
				t.Fatalf("%s has no Accepted", id)
			}
			var own []string
			if hexRef[i] {
				ref := b.Spec.Agent.BackendRef
				ns := ref.Namespace
				if ns == "" {
					ns = b.Namespace
				}
				if isLabel(ns) {
					own = append(own, "AgentBackend "+ns+"/"+ref.Name+" not found")
				}
			}
			if hexChannel[i] {
				own = append(own, `spec.chat.channel: "`+b.Spec.Chat.Channel+`" contains white space`)
			}
			for _, want := range own {
				if !strings.Contains(acc.Message, want) {
					t.Fatalf("%s Accepted %s does not quote its own text exactly: %q lacks %q", id, acc.Reason, acc.Message, want)
				}
			}
		}
	})
}

// hexRun draws n lower-case hex digits: a valid DNS name that the
// redactor would read as a secret.
func hexRun(t *rapid.T, n int) string {
	const digits = "0123456789abcdef"
	var b strings.Builder
	for range n {
		b.WriteByte(digits[rapid.IntRange(0, 15).Draw(t, "hex")])
	}
	return b.String()
}

// isLabel reports whether a reference namespace passes the Binding checks
// (a DNS-1123 label, as apimachinery decides it: 63 characters at most),
// so that the reference is looked up at all.
func isLabel(ns string) bool { return len(validation.IsDNS1123Label(ns)) == 0 }
